// Before each fault suite: the gateway's schema in its D1 database, as `wrangler d1 migrations apply` leaves it in a
// deployment (the gateway answers 503 without it).
import { applyD1Migrations, env } from 'cloudflare:test';

if (env.GATEWAY_DB && env.GATEWAY_MIGRATIONS.length) await applyD1Migrations(env.GATEWAY_DB, env.GATEWAY_MIGRATIONS);
