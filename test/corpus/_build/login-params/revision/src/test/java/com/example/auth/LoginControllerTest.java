package com.example.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoginControllerTest {
    private LoginController controller;

    @BeforeEach
    void setUp() {
        UserDirectory users = new UserDirectory();
        users.add(new UserDirectory.User("ada", "ada@example.com", "s3cret"));
        controller = new LoginController(users);
    }

    private static Map<String, String> form(String user, String password) {
        return Map.of("username", user, "password", password);
    }

    @Test
    void validCredentialsReturnAToken() {
        Response response = controller.login(form("ada", "s3cret"));
        assertEquals(200, response.status(), response.body());
        assertEquals("token:ada", response.body());
    }

    @Test
    void wrongPasswordIsUnauthorized() {
        Response response = controller.login(form("ada", "wrong"));
        assertEquals(401, response.status(), response.body());
    }

    @Test
    void missingPasswordIsABadRequest() {
        Response response = controller.login(Map.of("password", ""));
        assertEquals(400, response.status(), response.body());
    }
}
