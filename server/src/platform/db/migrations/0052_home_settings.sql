-- Home settings (spec §2 /homepageset; docs/home.md): per user, one of the five home styles,
-- the widgets its home shows in its order, and the sensors of the "specified sensor records"
-- widget (device numbers). No row: the user has not chosen, the home shows the default.
-- customer_id is the user's own (customer_of_user), as on its shortcuts.
CREATE TABLE home_setting (
  user_id      integer      PRIMARY KEY REFERENCES app_user(id) ON DELETE CASCADE,
  customer_id  integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  style        varchar(16)  NOT NULL,
  widgets      text[]       NOT NULL,
  sensors      text[]       NOT NULL DEFAULT '{}',
  updated_at   timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX home_setting_customer ON home_setting(customer_id);
CREATE TRIGGER home_setting_owner BEFORE INSERT OR UPDATE ON home_setting FOR EACH ROW EXECUTE FUNCTION customer_of_user();
