import pg from 'pg';
import { createPostgresDriver } from './src/index.js';
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', max: 4 });
await pool.query('drop schema if exists zz_p cascade');
const d = createPostgresDriver({ pool, schema: 'zz_p' });
await d.ready();
const N = 3000;
async function par(fn: (i: number) => Promise<unknown>) { let n = 0; const t = performance.now(); await Promise.all([0,1,2,3].map(async () => { while (n < N) await fn(n++); })); return (N / ((performance.now() - t) / 1000)).toFixed(0); }
const data = (i: number) => JSON.stringify({ chatId: `chat-${i % 100}`, userId: 'u', role: 'user', content: 'lorem ipsum dolor sit amet '.repeat(4) });
for (let round = 0; round < 2; round++) {
console.log('raw', await par((i) => pool.query(`INSERT INTO zz_p.chatwire_records (collection, record_id, data, created_at, updated_at) VALUES ($1, $2, $3::jsonb, now(), now())`, ['raw' + round, 'r' + i, data(i)])));
console.log('raw+returning', await par((i) => pool.query(`INSERT INTO zz_p.chatwire_records (collection, record_id, data, created_at, updated_at) VALUES ($1, $2, $3::jsonb, now(), now()) ON CONFLICT DO NOTHING RETURNING record_id, data::text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), seq::text`, ['rawr' + round, 'r' + i, data(i)])));
console.log('driver', await par((i) => d.insert('drv' + round, { recordId: 'r' + i, data: JSON.parse(data(i)) })));
}
await pool.query('drop schema if exists zz_p cascade');
await pool.end();
