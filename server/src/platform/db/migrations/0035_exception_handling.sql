-- Handling and signatures of exception records (docs/alarms.md "Handling and signatures";
-- modules/exception, modules/excatalog).
--
-- 1. ex_catalog: the reasons a customer picks from when it handles an exception (spec §2
--    /abnormal/abnormalcause, §3 "dictionary catalogue ex_catalog"), with a default list seeded
--    for every customer, now and at its creation, in both languages of the console.
-- 2. exception_handling: one row per signed step (handle, close, comment, correct), never
--    changed and never deleted: a correction is a new step. exception_record keeps only the
--    current state, for the lists.
-- 3. signature_copy: the signature image as it was when a step was signed. A user's live image
--    (stored_file kind 'signature') is replaced by the next upload and goes with its user; the
--    copy is kept with the records it signs, once per customer and content.

-- ---- 1. the reasons catalogue ------------------------------------------------------------

CREATE TABLE ex_catalog (
  id           serial       PRIMARY KEY,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  code         varchar(20)  NOT NULL,
  -- The name in each language of the console; either may be empty, not both (the other is shown).
  name_zh      varchar(50)  NOT NULL DEFAULT '',
  name_en      varchar(50)  NOT NULL DEFAULT '',
  sort         integer      NOT NULL DEFAULT 0 CHECK (sort BETWEEN 0 AND 9999),
  enabled      boolean      NOT NULL DEFAULT true,
  -- One of the seeded defaults (renamed or not); informative only, any reason can be edited.
  builtin      boolean      NOT NULL DEFAULT false,
  created_at   timestamptz  NOT NULL DEFAULT now(),
  CHECK (name_zh <> '' OR name_en <> ''),
  UNIQUE (customer_id, code)
);

-- The default reasons: what makes a cold-chain excursion in practice, and "other".
CREATE FUNCTION ex_catalog_seed(cid integer) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO ex_catalog (customer_id, code, name_zh, name_en, sort, builtin)
  SELECT cid, d.code, d.zh, d.en, d.sort, true
    FROM (VALUES
      ('door_open',     '门未关好',         'Door left open',               10),
      ('defrost',       '除霜',             'Defrost cycle',                20),
      ('power_cut',     '停电',             'Power cut',                    30),
      ('loading',       '装卸货',           'Loading or unloading',         40),
      ('equipment',     '制冷设备故障',     'Cooling equipment failure',    50),
      ('sensor_fault',  '传感器故障',       'Sensor fault',                 60),
      ('gateway_fault', '网关故障',         'Gateway fault',                70),
      ('calibration',   '校准或检定',       'Calibration or verification',  80),
      ('maintenance',   '设备维护或清洁',   'Maintenance or cleaning',      90),
      ('other',         '其他',             'Other',                       999)
    ) AS d(code, zh, en, sort)
  ON CONFLICT (customer_id, code) DO NOTHING
$fn$;

SELECT ex_catalog_seed(id) FROM customer;

-- A customer made later (console, registration, seeding) gets the defaults in the same transaction.
CREATE FUNCTION ex_catalog_seed_new() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ex_catalog_seed(NEW.id);
  RETURN NEW;
END
$fn$;
CREATE TRIGGER customer_ex_catalog AFTER INSERT ON customer FOR EACH ROW EXECUTE FUNCTION ex_catalog_seed_new();

-- ---- 2. the current state on the record ----------------------------------------------------

-- Foreign keys to the catalogue are NO ACTION, not RESTRICT: a customer's deletion removes its
-- reasons and the rows naming them in one statement, checked at its end.
ALTER TABLE exception_record
  ADD COLUMN reason_id    integer REFERENCES ex_catalog(id),
  -- Spec §3 "confirmed or suspected abnormal": NULL until handled.
  ADD COLUMN judgement    varchar(10) CHECK (judgement IN ('confirmed', 'suspected')),
  -- Spec §3 "excluded": the excursion is not counted (a sensor fault, a probe out of the goods), with why.
  ADD COLUMN excluded     boolean NOT NULL DEFAULT false,
  ADD COLUMN excluded_why varchar(250) NOT NULL DEFAULT '';
CREATE INDEX exception_record_reason ON exception_record(reason_id) WHERE reason_id IS NOT NULL;

-- ---- 3. signed copies of signature images --------------------------------------------------

CREATE TABLE signature_copy (
  id           serial       PRIMARY KEY,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  sha256       bytea        NOT NULL,
  mime         varchar(30)  NOT NULL,
  size         integer      NOT NULL,
  data         bytea        NOT NULL,
  created_at   timestamptz  NOT NULL DEFAULT now(),
  -- A bulk signing of a hundred exceptions stores the image once.
  UNIQUE (customer_id, sha256)
);

-- ---- 4. the steps --------------------------------------------------------------------------

CREATE TABLE exception_handling (
  id             bigserial    PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  exception_id   bigint       NOT NULL REFERENCES exception_record(id) ON DELETE CASCADE,
  action         varchar(10)  NOT NULL CHECK (action IN ('handle', 'close', 'comment', 'correct')),
  -- The signer as it was at signing: no foreign key, the step outlives the account.
  user_id        integer      NOT NULL,
  user_account   varchar(50)  NOT NULL,
  user_name      varchar(50)  NOT NULL,
  -- The database's clock, not the browser's (21 CFR Part 11 §11.50: date and time of signing).
  signed_at      timestamptz  NOT NULL DEFAULT now(),
  meaning        varchar(10)  NOT NULL CHECK (meaning IN ('reviewed', 'approved', 'closed')),
  -- The reason as chosen (its id) and as its name read at signing (a later rename changes nothing here).
  reason_id      integer      REFERENCES ex_catalog(id),
  reason         varchar(250) NOT NULL DEFAULT '',
  measures       varchar(250) NOT NULL DEFAULT '',
  comment        varchar(500) NOT NULL DEFAULT '',
  judgement      varchar(10)  CHECK (judgement IN ('confirmed', 'suspected')),
  excluded       boolean,
  excluded_why   varchar(250) NOT NULL DEFAULT '',
  status_before  smallint     NOT NULL,
  status_after   smallint     NOT NULL,
  signature_id   integer      REFERENCES signature_copy(id)
);
CREATE INDEX exception_handling_exception ON exception_handling(exception_id, id);
CREATE INDEX exception_handling_reason ON exception_handling(reason_id) WHERE reason_id IS NOT NULL;
CREATE INDEX exception_handling_customer ON exception_handling(customer_id, signed_at DESC);

-- ---- 5. signed means kept ------------------------------------------------------------------

-- A signed step and the image it points at are never updated and never deleted, whoever asks:
-- no route does it, and this refuses it from any connection that has not disabled triggers
-- (the backup restore does, to load them). The one way out is the deletion of their whole
-- customer (docs/tenancy.md "Delete"), which takes every record of the customer with it: when
-- the cascade reaches these rows the customer row is already gone.
CREATE FUNCTION signed_record_keep() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM customer WHERE id = OLD.customer_id) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION '% of % refused: signed handling records are kept as signed (a correction is a new step)', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$fn$;
CREATE TRIGGER exception_handling_keep BEFORE UPDATE OR DELETE ON exception_handling FOR EACH ROW EXECUTE FUNCTION signed_record_keep();
CREATE TRIGGER exception_handling_keep_truncate BEFORE TRUNCATE ON exception_handling FOR EACH STATEMENT EXECUTE FUNCTION signed_record_keep();
CREATE TRIGGER signature_copy_keep BEFORE UPDATE OR DELETE ON signature_copy FOR EACH ROW EXECUTE FUNCTION signed_record_keep();
CREATE TRIGGER signature_copy_keep_truncate BEFORE TRUNCATE ON signature_copy FOR EACH STATEMENT EXECUTE FUNCTION signed_record_keep();
