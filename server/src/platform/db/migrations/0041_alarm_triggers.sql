-- Alarm triggers (spec §3 "Alarm trigger", §2 /sysAlarm; docs/alarms.md "Triggers"): who is told
-- of a carrier's exceptions, on which channels, when, how often, and the carrier's alarm delay
-- and margins, which move here from the carrier (0034). One trigger serves many carriers.
CREATE TABLE alarm_trigger (
  id                  serial PRIMARY KEY,
  customer_id         integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  name                varchar(50)  NOT NULL,
  categories          text[]       NOT NULL,
  channels            text[]       NOT NULL CHECK (cardinality(channels) >= 1 AND channels <@ ARRAY['email', 'sms', 'voice']),
  group_names         text[]       NOT NULL DEFAULT '{}',
  levels              smallint[]   NOT NULL DEFAULT '{}' CHECK (levels <@ ARRAY[1, 2, 3]::smallint[]),
  reason              varchar(250) NOT NULL DEFAULT '',
  -- Time windows as minutes of the day in the customer's zone (start, end pairs; end <= start runs over midnight); none = all day.
  win_start           smallint[]   NOT NULL DEFAULT '{}',
  win_end             smallint[]   NOT NULL DEFAULT '{}',
  weekdays            smallint[]   NOT NULL DEFAULT '{1,2,3,4,5,6,7}' CHECK (cardinality(weekdays) >= 1 AND weekdays <@ ARRAY[1, 2, 3, 4, 5, 6, 7]::smallint[]),
  off_channels        text[]       NOT NULL DEFAULT '{}' CHECK (off_channels <@ ARRAY['email', 'sms', 'voice']),
  off_levels          smallint[]   NOT NULL DEFAULT '{}' CHECK (off_levels <@ ARRAY[1, 2, 3]::smallint[]),
  -- Shift reminders: minutes of the day (at most 7, 30 minutes apart: the contract's recordPoint.ts).
  time_points         smallint[]   NOT NULL DEFAULT '{}' CHECK (cardinality(time_points) <= 7),
  delay_s             integer      NOT NULL DEFAULT 0   CHECK (delay_s BETWEEN 0 AND 86400),
  temp_margin         numeric(4,2) NOT NULL DEFAULT 0.3 CHECK (temp_margin BETWEEN 0 AND 10),
  hum_margin          numeric(4,2) NOT NULL DEFAULT 2   CHECK (hum_margin BETWEEN 0 AND 10),
  repeat_times        smallint     NOT NULL DEFAULT 0   CHECK (repeat_times BETWEEN 0 AND 10),
  repeat_interval_min smallint     NOT NULL DEFAULT 30  CHECK (repeat_interval_min BETWEEN 1 AND 1440),
  escalate_after_min  smallint     NOT NULL DEFAULT 0   CHECK (escalate_after_min BETWEEN 0 AND 1440),
  notice_type         varchar(8)   NOT NULL DEFAULT 'open' CHECK (notice_type IN ('open', 'openEnd')),
  updated_at          timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (customer_id, name)
);

-- The trigger's named contacts (its groups and levels are resolved when an exception opens).
CREATE TABLE alarm_trigger_contact (
  trigger_id   integer NOT NULL REFERENCES alarm_trigger(id) ON DELETE CASCADE,
  contact_id   integer NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
  customer_id  integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  PRIMARY KEY (trigger_id, contact_id)
);
CREATE INDEX alarm_trigger_contact_contact ON alarm_trigger_contact(contact_id);

-- A bound trigger cannot be deleted (spec §8 warning): RESTRICT says so in the database too.
ALTER TABLE carrier
  ADD COLUMN trigger_id   integer REFERENCES alarm_trigger(id) ON DELETE RESTRICT,
  -- Alarm pause (spec §4) with an end and a reason: the alarm-resume job ends it.
  ADD COLUMN paused_until timestamptz,
  ADD COLUMN pause_reason varchar(250) NOT NULL DEFAULT '';
CREATE INDEX carrier_trigger ON carrier(trigger_id) WHERE trigger_id IS NOT NULL;
CREATE INDEX carrier_paused ON carrier(paused_until) WHERE paused_until IS NOT NULL;

-- What the carriers had (0014 alarm_methods, 0034 delay and margins) becomes triggers: one per
-- customer and distinct setting that differs from the defaults (e-mail, no delay, 0.3 °C,
-- 2 %RH); carriers on the defaults keep no trigger and behave as before.
WITH combos AS (
  SELECT DISTINCT customer_id, alarm_methods, alarm_delay_s, temp_margin, hum_margin FROM carrier
   WHERE alarm_methods <> 'email' OR alarm_delay_s <> 0 OR temp_margin <> 0.3 OR hum_margin <> 2
), named AS (
  SELECT c.*, row_number() OVER (PARTITION BY customer_id ORDER BY alarm_methods, alarm_delay_s, temp_margin, hum_margin) AS n FROM combos c
), made AS (
  INSERT INTO alarm_trigger (customer_id, name, categories, channels, delay_s, temp_margin, hum_margin, reason)
  SELECT customer_id, 'Carrier settings ' || n,
         ARRAY['temp_high', 'temp_low', 'hum_high', 'hum_low', 'sensor_connect', 'gateway_connect', 'gateway_blackout', 'display_connect', 'relay_connect', 'low_battery'],
         string_to_array(alarm_methods, ','), alarm_delay_s, temp_margin, hum_margin, 'migrated from the carriers'' alarm methods, delay and margins'
    FROM named
  RETURNING id, customer_id, channels, delay_s, temp_margin, hum_margin
)
UPDATE carrier k SET trigger_id = m.id FROM made m
 WHERE m.customer_id = k.customer_id AND m.channels = string_to_array(k.alarm_methods, ',') AND m.delay_s = k.alarm_delay_s
   AND m.temp_margin = k.temp_margin AND m.hum_margin = k.hum_margin;

ALTER TABLE carrier DROP COLUMN alarm_methods, DROP COLUMN alarm_delay_s, DROP COLUMN temp_margin, DROP COLUMN hum_margin;

-- The notice chain of an exception (repeats, escalation; the alarm-notice job): the level told so
-- far, the repeats sent, when the last notice and the last escalation went, and whether the chain
-- may still go on (the job closes it at the acknowledgement, or once the end is told or not needed).
ALTER TABLE exception_record
  ADD COLUMN during_pause    boolean     NOT NULL DEFAULT false,
  ADD COLUMN notice_level    smallint    NOT NULL DEFAULT 0,
  ADD COLUMN notice_repeats  smallint    NOT NULL DEFAULT 0,
  ADD COLUMN notified_at     timestamptz,
  ADD COLUMN level_since     timestamptz,
  ADD COLUMN chain_open      boolean     NOT NULL DEFAULT false;
-- The job reads only the open chains, however many exceptions the table holds.
CREATE INDEX exception_notice_chain ON exception_record(notified_at) WHERE chain_open;

-- Alarm switch log: why (optional), and a pause's end.
ALTER TABLE alarm_switch_log
  ADD COLUMN reason       varchar(250) NOT NULL DEFAULT '',
  ADD COLUMN paused_until timestamptz;
