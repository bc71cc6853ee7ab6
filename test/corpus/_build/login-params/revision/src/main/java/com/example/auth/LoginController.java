package com.example.auth;

import java.util.Map;

/**
 * POST /api/login (API v2): form parameters {@code login} (a user name or an e-mail address)
 * and {@code password}. The v1 parameter {@code username} is no longer accepted.
 */
public class LoginController {
    private final UserDirectory users;

    public LoginController(UserDirectory users) {
        this.users = users;
    }

    public Response login(Map<String, String> form) {
        String login = form.get("login");
        String password = form.get("password");
        if (login == null || login.isBlank()) {
            return Response.badRequest("missing required parameter: login");
        }
        if (password == null || password.isBlank()) {
            return Response.badRequest("missing required parameter: password");
        }
        return users.findByLogin(login)
                .filter(user -> user.password().equals(password))
                .map(user -> Response.ok("token:" + user.name()))
                .orElse(Response.unauthorized("invalid credentials"));
    }
}
