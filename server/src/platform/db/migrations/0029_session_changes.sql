-- Resolved sessions are kept in each console's memory (platform/auth/session-cache.ts): one
-- statement and a round trip less on every signed-in request. Everything a resolved session
-- is made of announces its changes on the channel coldwatch_auth, and every console connection
-- listens there, so a cached session is forgotten at the commit of any change that could alter
-- it: in the console that made the change before its commit returns, in the others (replicas,
-- an operator's psql) as soon as the notice arrives. PostgreSQL folds the notices of one
-- transaction into one.
--
-- The columns are those resolveSession reads; a login's counters (failed_logins,
-- locked_until) and the sliding expiry (expires_at) are left out, so that they do not empty the
-- cache at every login and every minute.
CREATE FUNCTION session_inputs_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('coldwatch_auth', '');
  RETURN NULL;
END
$fn$;

CREATE TRIGGER user_session_changed AFTER UPDATE OF token, user_id, revoked OR DELETE ON user_session
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER app_user_changed AFTER UPDATE OF account, name, customer_id, user_type, is_admin, status, proxy_customer_id OR DELETE ON app_user
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER customer_changed AFTER UPDATE OF status OR DELETE ON customer
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER role_changed AFTER UPDATE OF status OR DELETE ON role
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER user_role_changed AFTER INSERT OR UPDATE OR DELETE ON user_role
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER role_func_changed AFTER INSERT OR UPDATE OR DELETE ON role_func
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER role_proxy_customer_changed AFTER INSERT OR UPDATE OR DELETE ON role_proxy_customer
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER user_scene_changed AFTER INSERT OR UPDATE OR DELETE ON user_scene
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER role_scene_changed AFTER INSERT OR UPDATE OR DELETE ON role_scene
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
CREATE TRIGGER scene_changed AFTER INSERT OR UPDATE OF parent_id OR DELETE ON scene
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
