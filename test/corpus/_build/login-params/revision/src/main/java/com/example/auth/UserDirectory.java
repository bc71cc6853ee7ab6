package com.example.auth;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Known users with their passwords (hashing is out of scope for this service's tests). */
public class UserDirectory {
    public record User(String name, String email, String password) {}

    private final Map<String, User> byName = new HashMap<>();
    private final Map<String, User> byEmail = new HashMap<>();

    public void add(User user) {
        byName.put(user.name(), user);
        byEmail.put(user.email().toLowerCase(), user);
    }

    public Optional<User> findByName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** A user by name or, when the login contains '@', by e-mail address. */
    public Optional<User> findByLogin(String login) {
        return login.contains("@") ? Optional.ofNullable(byEmail.get(login.toLowerCase())) : findByName(login);
    }
}
