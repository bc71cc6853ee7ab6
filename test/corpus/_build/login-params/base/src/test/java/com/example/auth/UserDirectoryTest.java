package com.example.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UserDirectoryTest {
    @Test
    void findsAUserByName() {
        UserDirectory users = new UserDirectory();
        users.add(new UserDirectory.User("ada", "ada@example.com", "s3cret"));
        assertEquals("ada@example.com", users.findByName("ada").orElseThrow().email());
    }

    @Test
    void unknownNameFindsNobody() {
        assertTrue(new UserDirectory().findByName("nobody").isEmpty());
    }
}
