package com.example.auth;

import java.util.Map;

/** POST /api/login: form parameters {@code username} and {@code password}. */
public class LoginController {
    private final UserDirectory users;

    public LoginController(UserDirectory users) {
        this.users = users;
    }

    public Response login(Map<String, String> form) {
        String username = form.get("username");
        String password = form.get("password");
        if (username == null || username.isBlank()) {
            return Response.badRequest("missing required parameter: username");
        }
        if (password == null || password.isBlank()) {
            return Response.badRequest("missing required parameter: password");
        }
        return users.findByName(username)
                .filter(user -> user.password().equals(password))
                .map(user -> Response.ok("token:" + user.name()))
                .orElse(Response.unauthorized("invalid credentials"));
    }
}
