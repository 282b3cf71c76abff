-- Collect records (spec §2 /arch/temprecord, function object RecordPoint, §4 "approval of record
-- points: not approved, approved, rejected"; docs/records.md): the twice-a-day paper log that GSP
-- inspectors still ask for, kept as a signed electronic record.
--
-- 1. record_point_time: the times of day at which a carrier's value is recorded (at most seven,
--    at least 30 minutes apart: packages/contract api/recordPoint.ts, checked by the server). The
--    values themselves are not stored: each time is filled on read from the carrier's value
--    nearest it (modules/recordpoint), so a back-filled reading counts until the day is signed.
-- 2. record_point_sign: one row per signed decision on a carrier's day, approved or rejected,
--    with the values as they were signed; never changed and never deleted (signed_record_keep of
--    0035), so what an inspector reads is what was signed.

CREATE TABLE record_point_time (
  carrier_id   integer      PRIMARY KEY REFERENCES carrier(id) ON DELETE CASCADE,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  -- Minutes of the day in the customer's time zone, ascending.
  minutes      smallint[]   NOT NULL CHECK (cardinality(minutes) BETWEEN 1 AND 7),
  updated_at   timestamptz  NOT NULL DEFAULT now(),
  updated_by   varchar(50)  NOT NULL DEFAULT ''
);
CREATE INDEX record_point_time_customer ON record_point_time(customer_id);

CREATE TABLE record_point_sign (
  id            bigserial    PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  -- The carrier as it was: no foreign key, a signed record outlives the carrier it was kept for.
  carrier_id    integer      NOT NULL,
  carrier_name  varchar(50)  NOT NULL,
  -- The customer's calendar day, in the zone below.
  day           date         NOT NULL,
  tz            varchar(6)   NOT NULL,
  decision      varchar(8)   NOT NULL CHECK (decision IN ('approved', 'rejected')),
  comment       varchar(250) NOT NULL DEFAULT '',
  -- [{minute, at, ts, temp, hum}]: each record time, the reading it took (ts null: none near it).
  points        jsonb        NOT NULL,
  -- The signer as it was at signing (21 CFR Part 11 §11.50: printed name, date and time, meaning).
  user_id       integer      NOT NULL,
  user_account  varchar(50)  NOT NULL,
  user_name     varchar(50)  NOT NULL,
  signed_at     timestamptz  NOT NULL DEFAULT now(),
  signature_id  integer      REFERENCES signature_copy(id)
);
CREATE INDEX record_point_sign_day ON record_point_sign(carrier_id, day, id);
CREATE INDEX record_point_sign_customer ON record_point_sign(customer_id, signed_at DESC);
-- An approved day is final: one approval per carrier and day, whoever races for it.
CREATE UNIQUE INDEX record_point_sign_approved ON record_point_sign(carrier_id, day) WHERE decision = 'approved';

CREATE TRIGGER record_point_sign_keep BEFORE UPDATE OR DELETE ON record_point_sign FOR EACH ROW EXECUTE FUNCTION signed_record_keep();
CREATE TRIGGER record_point_sign_keep_truncate BEFORE TRUNCATE ON record_point_sign FOR EACH STATEMENT EXECUTE FUNCTION signed_record_keep();
