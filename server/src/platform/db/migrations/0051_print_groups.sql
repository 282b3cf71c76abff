-- Reports (issue 30; spec §2 /arch/printer, §3 Print group, §7 printGroup/*, printer/info;
-- docs/reports.md): print groups (named groups of carriers printed as one PDF report, with an
-- optional daily, weekly or monthly schedule e-mailed to chosen contacts), the reports made
-- (printed on demand or by the schedule, kept with their PDF), their signatures after review,
-- and the notice outbox's reference to the report a mail carries as its attachment.

CREATE TABLE print_group (
  id            serial       PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  name          varchar(30)  NOT NULL,
  schedule      varchar(10)  NOT NULL DEFAULT 'none' CHECK (schedule IN ('none', 'daily', 'weekly', 'monthly')),
  -- The language of its scheduled reports and their mails.
  locale        varchar(10)  NOT NULL DEFAULT 'zh-CN' CHECK (locale IN ('zh-CN', 'en-US')),
  -- When the schedule was last set: it reports the periods that end after this (none before).
  schedule_from timestamptz,
  created_by    varchar(50)  NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (customer_id, name)
);
CREATE INDEX print_group_scheduled ON print_group(schedule) WHERE schedule <> 'none';

-- The carriers of a group, in the order they are printed.
CREATE TABLE print_group_carrier (
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  group_id      integer      NOT NULL REFERENCES print_group(id) ON DELETE CASCADE,
  carrier_id    integer      NOT NULL REFERENCES carrier(id) ON DELETE CASCADE,
  position      smallint     NOT NULL DEFAULT 0,
  PRIMARY KEY (group_id, carrier_id)
);
CREATE INDEX print_group_carrier_carrier ON print_group_carrier(carrier_id);

-- Who receives its scheduled reports (by e-mail).
CREATE TABLE print_group_contact (
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  group_id      integer      NOT NULL REFERENCES print_group(id) ON DELETE CASCADE,
  contact_id    integer      NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, contact_id)
);
CREATE INDEX print_group_contact_contact ON print_group_contact(contact_id);

-- A report made: printed on demand (a group or one carrier) or by a group's schedule. Kept with
-- its PDF and the figures it was drawn from (model), so that signing draws the same report again
-- with its signatures; a group deleted leaves its reports as records.
CREATE TABLE report (
  id            bigserial    PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  group_id      integer      REFERENCES print_group(id) ON DELETE SET NULL,
  group_name    varchar(30)  NOT NULL DEFAULT '',
  carrier_ids   integer[]    NOT NULL,
  carrier_names text[]       NOT NULL DEFAULT '{}',
  kind          varchar(10)  NOT NULL CHECK (kind IN ('print', 'scheduled')),
  -- The schedule's period of a scheduled report.
  period        varchar(10)  CHECK (period IN ('daily', 'weekly', 'monthly')),
  start_ts      timestamptz  NOT NULL,
  end_ts        timestamptz  NOT NULL,
  tz            varchar(6)   NOT NULL,
  locale        varchar(10)  NOT NULL DEFAULT 'zh-CN',
  status        varchar(10)  NOT NULL DEFAULT 'generating' CHECK (status IN ('generating', 'generated', 'failed')),
  error         varchar(500) NOT NULL DEFAULT '',
  -- A scheduled report's tries: a replica that died making it leaves it to another after the lease.
  attempts      smallint     NOT NULL DEFAULT 0,
  lease_until   timestamptz,
  model         jsonb,
  -- The file as served now: the last signed version once signed.
  pdf           bytea,
  size          integer,
  sha256        bytea,
  -- The SHA-256 of the file as it was made, before any signature (it stays genuine, superseded).
  made_sha256   bytea,
  created_by    varchar(50)  NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now(),
  finished_at   timestamptz,
  CHECK (end_ts > start_ts),
  CHECK ((kind = 'scheduled') = (period IS NOT NULL))
);
-- A group's report of a period is made once, whichever replica's job sees it first.
CREATE UNIQUE INDEX report_scheduled_once ON report(group_id, period, start_ts) WHERE kind = 'scheduled';
CREATE INDEX report_customer ON report(customer_id, id DESC);
CREATE INDEX report_pending ON report(status) WHERE status <> 'generated';
CREATE INDEX report_sha256 ON report(sha256);
CREATE INDEX report_made_sha256 ON report(made_sha256);

-- A signature of a report after review (21 CFR Part 11 §11.50: name, time, meaning), never
-- changed. Each makes a new signed version of the file; its SHA-256 is kept here and in the
-- system log row of the signing.
CREATE TABLE report_signature (
  id            bigserial    PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  report_id     bigint       NOT NULL REFERENCES report(id) ON DELETE CASCADE,
  user_id       integer      NOT NULL,
  user_account  varchar(50)  NOT NULL,
  user_name     varchar(50)  NOT NULL,
  meaning       varchar(10)  NOT NULL CHECK (meaning IN ('reviewed', 'approved')),
  comment       varchar(250) NOT NULL DEFAULT '',
  signature_id  integer      REFERENCES signature_copy(id),
  signed_at     timestamptz  NOT NULL DEFAULT now(),
  sha256        bytea        NOT NULL
);
CREATE INDEX report_signature_report ON report_signature(report_id, id);
CREATE INDEX report_signature_sha256 ON report_signature(sha256);

-- The outbox carries the report a scheduled mail attaches; the notifier reads its PDF as it sends.
ALTER TABLE notice_log ADD COLUMN report_id bigint REFERENCES report(id) ON DELETE SET NULL;
