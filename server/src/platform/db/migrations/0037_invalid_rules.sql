-- Invalid rules (issue 27; spec §2 /abnormal/invalidRule; docs/alarms.md "Invalid rules"):
-- periods during which a carrier's readings are invalid, so that they raise no alarm and show
-- as excluded in history (later statistics and reports). server/src/alarm/excluded.ts reads them.
--
-- 1. invalid_rule: what the rule page lists and edits (name, reason, enabled, who, and the
--    definition in force for the form).
-- 2. invalid_rule_version: what the rule excluded when. A rule never rewrites the past: each
--    creation, change or enabling opens a version valid from that moment (the transaction's
--    now()), and each change, disabling or deletion closes the one in force at that moment.
--    A back-filled reading is judged by the version in force at its own time, so the exceptions
--    of a period are the same whenever its readings arrive, and history stays what it showed.
-- 3. carrier_defrost: when a carrier had the status "defrost" (5), kept by a trigger on the
--    carrier's status (whoever changes it), for the rules of kind 'defrost'.

CREATE TABLE invalid_rule (
  id           serial       PRIMARY KEY,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  name         varchar(50)  NOT NULL,
  -- schedule: weekdays × daily windows in the customer's time zone (a defrost cycle);
  -- period: one start–end (loading, maintenance); defrost: while the carrier's status is defrost.
  kind         varchar(8)   NOT NULL CHECK (kind IN ('schedule', 'period', 'defrost')),
  -- ISO weekdays, 1 Monday … 7 Sunday (schedule).
  weekdays     smallint[]   NOT NULL DEFAULT '{}',
  -- Daily windows [[fromMinute, toMinute], …] (schedule); to ≤ from runs past midnight.
  windows      jsonb        NOT NULL DEFAULT '[]',
  start_ts     timestamptz,
  end_ts       timestamptz,
  carrier_ids  integer[]    NOT NULL,
  reason_id    integer      REFERENCES ex_catalog(id) ON DELETE SET NULL,
  remark       varchar(250) NOT NULL DEFAULT '',
  enabled      boolean      NOT NULL DEFAULT true,
  created_at   timestamptz  NOT NULL DEFAULT now(),
  created_by   varchar(50)  NOT NULL DEFAULT '',
  updated_at   timestamptz  NOT NULL DEFAULT now(),
  updated_by   varchar(50)  NOT NULL DEFAULT '',
  -- Deleted rules stay (their versions are history); the page no longer lists them.
  deleted_at   timestamptz,
  CHECK (kind <> 'period' OR (start_ts IS NOT NULL AND end_ts IS NOT NULL AND start_ts < end_ts))
);
CREATE UNIQUE INDEX invalid_rule_name ON invalid_rule(customer_id, name) WHERE deleted_at IS NULL;

CREATE TABLE invalid_rule_version (
  id           serial       PRIMARY KEY,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  rule_id      integer      NOT NULL REFERENCES invalid_rule(id) ON DELETE CASCADE,
  kind         varchar(8)   NOT NULL CHECK (kind IN ('schedule', 'period', 'defrost')),
  weekdays     smallint[]   NOT NULL DEFAULT '{}',
  windows      jsonb        NOT NULL DEFAULT '[]',
  start_ts     timestamptz,
  end_ts       timestamptz,
  -- The customer's time zone when the version opened: a later change of zone moves no past window.
  tz           varchar(6)   NOT NULL,
  carrier_ids  integer[]    NOT NULL,
  valid_from   timestamptz  NOT NULL DEFAULT now(),
  valid_to     timestamptz,
  CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
-- "Which versions bind these carriers": the alarm's per-window probe and excludedSpans.
CREATE INDEX invalid_rule_version_carriers ON invalid_rule_version USING gin (carrier_ids);
CREATE INDEX invalid_rule_version_rule ON invalid_rule_version(rule_id);

CREATE TABLE carrier_defrost (
  id           serial       PRIMARY KEY,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  carrier_id   integer      NOT NULL REFERENCES carrier(id) ON DELETE CASCADE,
  start_ts     timestamptz  NOT NULL DEFAULT now(),
  end_ts       timestamptz,
  CHECK (end_ts IS NULL OR end_ts >= start_ts)
);
CREATE INDEX carrier_defrost_carrier ON carrier_defrost(carrier_id, start_ts);
CREATE UNIQUE INDEX carrier_defrost_open ON carrier_defrost(carrier_id) WHERE end_ts IS NULL;

-- Entering status 5 opens a defrost period, leaving it ends it, wherever the status changes.
CREATE FUNCTION carrier_defrost_track() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF NEW.status = 5 AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 5) THEN
    INSERT INTO carrier_defrost (customer_id, carrier_id) VALUES (NEW.customer_id, NEW.id) ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'UPDATE' AND OLD.status = 5 AND NEW.status IS DISTINCT FROM 5 THEN
    UPDATE carrier_defrost SET end_ts = now() WHERE carrier_id = NEW.id AND end_ts IS NULL;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER carrier_defrost_track AFTER INSERT OR UPDATE OF status ON carrier
  FOR EACH ROW EXECUTE FUNCTION carrier_defrost_track();
-- Carriers already in defrost: their period starts now (nothing says since when).
INSERT INTO carrier_defrost (customer_id, carrier_id) SELECT customer_id, id FROM carrier WHERE status = 5;
