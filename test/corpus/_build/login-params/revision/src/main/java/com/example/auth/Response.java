package com.example.auth;

/** An HTTP-style response: status code and body. */
public record Response(int status, String body) {
    static Response ok(String body) {
        return new Response(200, body);
    }

    static Response badRequest(String message) {
        return new Response(400, message);
    }

    static Response unauthorized(String message) {
        return new Response(401, message);
    }
}
