-- Sessions keep the SHA-256 of their token (platform/auth/session.ts tokenHash), not the token:
-- the sessions open at upgrade keep working, their stored tokens replaced by their hashes.
UPDATE user_session SET token = encode(sha256(convert_to(token, 'UTF8')), 'hex');
