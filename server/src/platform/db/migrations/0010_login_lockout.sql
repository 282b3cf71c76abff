-- Login lockout (platform/auth/login.ts): consecutive wrong passwords of an account, and the
-- time until which it is refused even with the right one.
ALTER TABLE app_user ADD COLUMN failed_logins int NOT NULL DEFAULT 0;
ALTER TABLE app_user ADD COLUMN locked_until timestamptz;
