-- Carriers get the rest of spec §3's fields, the alarm switch gets its log, scenes get floor
-- plans with placed devices, and the sample mode decides a carrier's one value when several
-- sensors watch it (spec §3 "sample modes for mapped devices").

ALTER TABLE carrier
  ADD COLUMN load_type     smallint    NOT NULL DEFAULT 0,          -- 0 general … see contract LOAD_TYPES
  ADD COLUMN traceable     boolean     NOT NULL DEFAULT false,
  ADD COLUMN alarm_methods varchar(20) NOT NULL DEFAULT 'email',     -- comma list of email, sms, voice
  ADD COLUMN is_kpi        boolean     NOT NULL DEFAULT true,
  ADD COLUMN sample_mode   varchar(10) NOT NULL DEFAULT 'latest';   -- latest | max | min | avg | balanced

-- Spec §2 /noti/alarmLog: every change of a carrier's alarm switch, who and when. The carrier's
-- name is kept so the row still reads after the carrier is gone.
CREATE TABLE alarm_switch_log (
  id            bigserial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  carrier_id    integer      REFERENCES carrier(id) ON DELETE SET NULL,
  carrier_name  varchar(50)  NOT NULL,
  alarm_on      boolean      NOT NULL,
  user_id       integer,
  operator      varchar(50)  NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX alarm_switch_log_customer ON alarm_switch_log(customer_id, created_at DESC);
CREATE INDEX alarm_switch_log_carrier ON alarm_switch_log(carrier_id, created_at DESC);

-- A floor plan (funcType 1 scene): one picture, and the sensors placed on it at fractions of
-- its width and height (so the plan scales with the screen).
CREATE TABLE scene_plane (
  scene_id      integer      PRIMARY KEY REFERENCES scene(id) ON DELETE CASCADE,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  mime          varchar(30)  NOT NULL,
  size          integer      NOT NULL,
  data          bytea        NOT NULL,
  updated_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX scene_plane_customer ON scene_plane(customer_id);

CREATE TABLE scene_device_position (
  sensor_id     integer      PRIMARY KEY REFERENCES sensor(id) ON DELETE CASCADE,
  scene_id      integer      NOT NULL REFERENCES scene(id) ON DELETE CASCADE,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  x             real         NOT NULL CHECK (x >= 0 AND x <= 1),
  y             real         NOT NULL CHECK (y >= 0 AND y <= 1)
);
CREATE INDEX scene_device_position_scene ON scene_device_position(scene_id);
CREATE INDEX scene_device_position_customer ON scene_device_position(customer_id);
