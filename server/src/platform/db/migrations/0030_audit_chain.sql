-- Tamper evidence for the system log (docs/security.md "System log"). Each row carries the
-- SHA-256 of its content and of the previous row's hash, one chain per customer (rows without
-- a customer, such as refused logins, form chain 0). The trigger below chains every insert,
-- whoever writes it, so no code path can forget; `npm run audit:verify` recomputes the chains
-- outside the database and names each changed, inserted or deleted row.
--
-- Nothing here stops a database superuser: triggers can be disabled. The point is that such
-- a change no longer goes unseen.

-- The client address of the request that wrote the row (Fastify's req.ip, which honours
-- TRUST_PROXY). Long enough for IPv6 with a zone; text, because with a trusted proxy it is
-- whatever X-Forwarded-For said, and a row must never be lost over a malformed address.
ALTER TABLE sys_log ADD COLUMN ip varchar(64);
-- Position in the chain (1, 2, … per customer), the previous row's hash, this row's hash. Set
-- by the trigger on every insert; NULL only on a row slipped in with the trigger off.
ALTER TABLE sys_log ADD COLUMN seq bigint;
ALTER TABLE sys_log ADD COLUMN prev_hash bytea;
ALTER TABLE sys_log ADD COLUMN hash bytea;

-- The head of each chain: the last position and hash, so the next insert links to it and a
-- deletion at the end of the chain shows. Its key is named `chain`, not customer_id, on
-- purpose: it is the platform's bookkeeping, not customer data (no tenant scope), and a
-- customer's deletion, which empties every customer_id table but sys_log, must leave it.
CREATE TABLE sys_log_chain (
  chain       integer PRIMARY KEY,          -- the customer's id, 0 for rows without one
  last_seq    bigint  NOT NULL,
  last_id     bigint,
  last_hash   bytea   NOT NULL
);

-- Retention cuts a chain only from its start, and each cut leaves an anchor: where the chain
-- now begins and the hash it begins from, with what was removed. Anchors are never deleted.
CREATE TABLE sys_log_anchor (
  id              bigserial   PRIMARY KEY,
  chain           integer     NOT NULL,
  from_seq        bigint      NOT NULL,     -- the first position removed
  first_seq       bigint      NOT NULL,     -- the first position kept
  prev_hash       bytea       NOT NULL,     -- the hash the row at first_seq links to
  removed         bigint      NOT NULL,     -- rows removed (first_seq - from_seq when none were missing)
  last_removed_id bigint,
  last_removed_at timestamptz,
  cutoff          timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sys_log_anchor_chain ON sys_log_anchor (chain, first_seq DESC);

-- The text a row's hash is taken over. Each field is its UTF-8 length, a colon and its text
-- (NULL is '-'), so no content can imitate a field boundary; the verifier builds the same
-- text in TypeScript (platform/audit/chain.ts), and both must change together, with the tag.
CREATE FUNCTION sys_log_field(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN v IS NULL THEN '-' ELSE octet_length(convert_to(v, 'UTF8'))::text || ':' || v END
$fn$;

CREATE FUNCTION sys_log_hash(r sys_log) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
  SELECT sha256(convert_to(concat_ws(E'\n',
    'sys_log v1',
    sys_log_field(r.seq::text),
    sys_log_field(r.id::text),
    -- microseconds since the epoch: exact, and free of the session's time zone and DateStyle
    sys_log_field((extract(epoch FROM r.created_at) * 1000000)::bigint::text),
    sys_log_field(r.customer_id::text),
    sys_log_field(r.user_id::text),
    sys_log_field(r.operator),
    sys_log_field(r.ip),
    sys_log_field(r.module),
    sys_log_field(r.method),
    sys_log_field(r.content),
    sys_log_field(r.params::text),
    sys_log_field(r.result::text),
    sys_log_field(encode(r.prev_hash, 'hex'))), 'UTF8'))
$fn$;

-- The rows already written are chained in id order, each customer's apart.
DO $do$
DECLARE
  r sys_log;
  k integer;
  cur integer;
  s bigint;
  h bytea;
  last bigint;
BEGIN
  FOR r IN SELECT * FROM sys_log ORDER BY coalesce(customer_id, 0), id LOOP
    k := coalesce(r.customer_id, 0);
    IF cur IS DISTINCT FROM k THEN
      IF cur IS NOT NULL THEN
        INSERT INTO sys_log_chain (chain, last_seq, last_id, last_hash) VALUES (cur, s, last, h);
      END IF;
      cur := k;
      s := 0;
      h := decode(repeat('00', 32), 'hex');
    END IF;
    s := s + 1;
    r.seq := s;
    r.prev_hash := h;
    r.hash := sys_log_hash(r);
    UPDATE sys_log SET seq = r.seq, prev_hash = r.prev_hash, hash = r.hash WHERE id = r.id;
    h := r.hash;
    last := r.id;
  END LOOP;
  IF cur IS NOT NULL THEN
    INSERT INTO sys_log_chain (chain, last_seq, last_id, last_hash) VALUES (cur, s, last, h);
  END IF;
END
$do$;

-- One position once per chain; the verifier and retention walk a chain in this order.
CREATE UNIQUE INDEX sys_log_chain_seq ON sys_log ((coalesce(customer_id, 0)), seq);

-- Appends the row to its customer's chain. The head row is locked until the transaction ends,
-- so concurrent writers of one customer take turns and the chain cannot fork; other customers
-- are not held up. A chain starts from 32 zero bytes.
CREATE FUNCTION sys_log_append() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  k integer := coalesce(NEW.customer_id, 0);
  head record;
BEGIN
  SELECT last_seq, last_hash INTO head FROM sys_log_chain WHERE chain = k FOR UPDATE;
  IF NOT FOUND THEN
    -- A concurrent first row of the same customer waits here for the other's head, then uses it.
    INSERT INTO sys_log_chain (chain, last_seq, last_hash) VALUES (k, 0, decode(repeat('00', 32), 'hex')) ON CONFLICT (chain) DO NOTHING;
    SELECT last_seq, last_hash INTO head FROM sys_log_chain WHERE chain = k FOR UPDATE;
  END IF;
  NEW.seq := head.last_seq + 1;
  NEW.prev_hash := head.last_hash;
  NEW.hash := sys_log_hash(NEW);
  UPDATE sys_log_chain SET last_seq = NEW.seq, last_id = NEW.id, last_hash = NEW.hash WHERE chain = k;
  RETURN NEW;
END
$fn$;
-- BEFORE triggers fire in name order: this one is named to come last, so that it hashes the
-- row exactly as it is stored.
CREATE TRIGGER sys_log_zz_chain BEFORE INSERT ON sys_log FOR EACH ROW EXECUTE FUNCTION sys_log_append();

-- The log is append-only. A row may be deleted only when an anchor of its chain has already
-- moved past it, which is what retention does (platform/audit/chain.ts): a deletion in the
-- middle, or any UPDATE, is refused. Defence in depth only: whoever may disable triggers can
-- get past it, and the verifier is what catches that.
CREATE FUNCTION sys_log_guard() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.seq < (SELECT max(first_seq) FROM sys_log_anchor WHERE chain = coalesce(OLD.customer_id, 0)) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'the system log is append-only: % of sys_log refused (rows leave only through retention, which moves the chain''s anchor)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$fn$;
CREATE TRIGGER sys_log_guard BEFORE UPDATE OR DELETE ON sys_log FOR EACH ROW EXECUTE FUNCTION sys_log_guard();
CREATE TRIGGER sys_log_guard_truncate BEFORE TRUNCATE ON sys_log FOR EACH STATEMENT EXECUTE FUNCTION sys_log_guard();

-- Anchors are history too; a chain head may move forward (the trigger above) but not vanish.
CREATE FUNCTION sys_log_keep() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION '% of % refused: the system log''s chain records are kept', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$fn$;
CREATE TRIGGER sys_log_anchor_keep BEFORE UPDATE OR DELETE ON sys_log_anchor FOR EACH ROW EXECUTE FUNCTION sys_log_keep();
CREATE TRIGGER sys_log_anchor_keep_truncate BEFORE TRUNCATE ON sys_log_anchor FOR EACH STATEMENT EXECUTE FUNCTION sys_log_keep();
CREATE TRIGGER sys_log_chain_keep BEFORE DELETE ON sys_log_chain FOR EACH ROW EXECUTE FUNCTION sys_log_keep();
CREATE TRIGGER sys_log_chain_keep_truncate BEFORE TRUNCATE ON sys_log_chain FOR EACH STATEMENT EXECUTE FUNCTION sys_log_keep();
