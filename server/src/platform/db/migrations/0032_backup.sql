-- Whole-database backups (modules/backup, docs/operations.md "Backups"): one row per run of the
-- backup job, the failed ones too, so that a missing day shows. The file itself lives in
-- BACKUP_DIR; the row is its record (when, how, size, checksum, how long) and stays after
-- retention deleted the file (deleted_at), as the trace of that deletion. Not customer data:
-- a backup holds every customer, and only platform users see this list.
CREATE TABLE backup_file (
  id           bigserial PRIMARY KEY,
  -- The file's name in BACKUP_DIR; '' when the run failed before it chose one.
  name         text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('pglite', 'pg_dump', 'logical')),
  started_at   timestamptz NOT NULL,
  finished_at  timestamptz NOT NULL DEFAULT now(),
  duration_ms  integer NOT NULL,
  size_bytes   bigint,
  sha256       text,
  outcome      text NOT NULL CHECK (outcome IN ('ok', 'failed')),
  error        text NOT NULL DEFAULT '',
  -- The console replica that wrote it: with several replicas, the one whose BACKUP_DIR holds it.
  replica      text,
  deleted_at   timestamptz
);
CREATE INDEX backup_file_started ON backup_file (started_at DESC);
CREATE UNIQUE INDEX backup_file_name ON backup_file (name) WHERE outcome = 'ok';
