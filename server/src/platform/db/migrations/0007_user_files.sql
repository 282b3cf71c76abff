-- Uploaded images of users (spec §3 User: avatar, digital signature for reports). Kept in
-- the database so that every replica serves them; small by rule (avatar < 2 MB, signature
-- < 500 KB). One current file per user and kind; app_user.avatar / app_user.signature hold
-- the current file's id as text.

CREATE TABLE stored_file (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  user_id       integer      NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  kind          varchar(10)  NOT NULL,                       -- avatar | signature
  mime          varchar(30)  NOT NULL,                       -- image/png | image/jpeg
  size          integer      NOT NULL,
  data          bytea        NOT NULL,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (user_id, kind)
);
CREATE INDEX stored_file_customer ON stored_file(customer_id);
