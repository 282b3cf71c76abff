-- Captchas are no longer stored when shown: the cookie carries the signed challenge
-- (platform/auth/captcha.ts). Only spent codes are kept, until they expire, so that each is
-- tried once on any replica.
DROP TABLE captcha;
CREATE TABLE captcha_spent (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX captcha_spent_expires ON captcha_spent (expires_at);
