-- Sign-in defences (platform/auth/login.ts, modules/loginqr).
--
-- A login QR code belongs to the browser that asked for it: that browser holds a random
-- secret in an HTTP-only cookie, the code keeps only the secret's SHA-256, and the status
-- poll logs in only a caller presenting the secret. Codes issued before this migration have
-- none and so can no longer log anyone in (they lived five minutes anyway).
ALTER TABLE login_qr ADD COLUMN secret_hash text;

-- Wrong passwords are counted per (account, client address) instead of per account: an
-- attacker's failures lock the attacker's address out of the account, not the account. The sum
-- over an account's recent rows tells an account under attack from many addresses, which then
-- asks for a picture code instead of locking.
CREATE TABLE login_failure (
  user_id        integer     NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  customer_id    integer     NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  -- The client address as the limits count it: IPv4, or the /64 network of an IPv6 address.
  address        text        NOT NULL,
  -- Consecutive wrong passwords from this address; a success from it deletes the row.
  failures       integer     NOT NULL,
  locked_until   timestamptz,
  last_failed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, address)
);
CREATE INDEX login_failure_last ON login_failure (last_failed_at);

-- The account-wide lock this replaces: anyone could keep any account locked.
ALTER TABLE app_user DROP COLUMN failed_logins;
ALTER TABLE app_user DROP COLUMN locked_until;
