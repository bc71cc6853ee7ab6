package com.example.auth;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Known users with their passwords (hashing is out of scope for this service's tests). */
public class UserDirectory {
    public record User(String name, String email, String password) {}

    private final Map<String, User> byName = new HashMap<>();

    public void add(User user) {
        byName.put(user.name(), user);
    }

    public Optional<User> findByName(String name) {
        return Optional.ofNullable(byName.get(name));
    }
}
