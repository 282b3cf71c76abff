-- The download centre (spec §2 /count/exportTask and /download, §3 "Download record", §4
-- "Report/download file: being generated, generated, failed", §7 download/record/*; issue 30;
-- docs/exports.md): one record per file a user asked for (an export, a report), and the file
-- itself in chunks in the database, so that any replica serves it and a backup holds it.
-- stored_file cannot be it: one file per user and kind, written whole in one insert.

CREATE TABLE download_record (
  id           serial PRIMARY KEY,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  -- Who asked for it; the file is theirs (another user of the customer sees it with viewDownload
  -- only when an administrator). A user deleted takes its files along.
  user_id      integer      NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  -- The spec's key: what the browser watches (userProgress takes a list of them).
  key          uuid         NOT NULL UNIQUE,
  -- The file's name as downloaded (content-disposition), with its extension.
  name         varchar(200) NOT NULL,
  -- export: a table the user exported (retention: export_retention_days); report: a PDF report (modules/report).
  kind         varchar(10)  NOT NULL CHECK (kind IN ('export', 'report')),
  -- What was exported: history, detailData, exceptions, statistic, verifyTask, report …
  source       varchar(30)  NOT NULL,
  format       varchar(10)  NOT NULL CHECK (format IN ('xlsx', 'csv', 'pdf', 'zip')),
  status       varchar(10)  NOT NULL DEFAULT 'generating' CHECK (status IN ('generating', 'generated', 'failed')),
  progress     smallint     NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  -- What was asked (subject, span, filters, language): shown on the page, and what "generate again" asks again.
  criteria     jsonb        NOT NULL DEFAULT '{}',
  -- The run of the export job that makes it (null for a file stored at once, storeDownload).
  job_id       bigint,
  rows         integer,
  size         bigint,
  sha256       char(64),
  -- Why it failed: a message key of the errors catalogue, or the error's text.
  error        varchar(500),
  created_at   timestamptz  NOT NULL DEFAULT now(),
  -- When its making began (null while it waits for the export lane): a try that began and
  -- was cut off (the database went away, the process died) ends failed, never generating for ever.
  started_at   timestamptz,
  updated_at   timestamptz  NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  CHECK ((status = 'generated') = (sha256 IS NOT NULL))
);
CREATE INDEX download_record_user ON download_record (customer_id, user_id, id DESC);
CREATE INDEX download_record_generating ON download_record (status) WHERE status = 'generating';
CREATE INDEX download_record_finished ON download_record (kind, finished_at);

-- The file: its bytes in order, a chunk a row (256 KiB each but the last), written as it is
-- made and read back as it is sent. A file whose making failed leaves no chunk.
CREATE TABLE download_chunk (
  record_id    integer      NOT NULL REFERENCES download_record(id) ON DELETE CASCADE,
  seq          integer      NOT NULL,
  customer_id  integer      NOT NULL,
  data         bytea        NOT NULL,
  PRIMARY KEY (record_id, seq)
);

