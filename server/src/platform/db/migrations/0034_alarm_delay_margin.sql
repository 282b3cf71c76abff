-- Alarm delay and hysteresis margin of a carrier (issue 27; docs/alarms.md "What an exception
-- is"). An exception opens once its condition has held for the delay, and ends only once the
-- value is back inside the zone by the margin (and the delay has passed without a new
-- crossing), so a value hovering on a limit no longer opens an exception at every crossing.
--
-- Per carrier for now; the alarm triggers will carry them later. Existing carriers take the
-- defaults: delay 0 (no default hides an excursion: the first reading out still alarms at
-- once) and margins of 0.3 °C and 2 %RH. The ranges are the contract's (delay 0..86400 s,
-- margins 0..10); the evaluator caps a margin at half its zone's width (alarm/segments.ts).
ALTER TABLE carrier
  ADD COLUMN alarm_delay_s integer      NOT NULL DEFAULT 0   CHECK (alarm_delay_s BETWEEN 0 AND 86400),
  ADD COLUMN temp_margin   numeric(4,2) NOT NULL DEFAULT 0.3 CHECK (temp_margin BETWEEN 0 AND 10),
  ADD COLUMN hum_margin    numeric(4,2) NOT NULL DEFAULT 2   CHECK (hum_margin BETWEEN 0 AND 10);
