// Run one SQL statement in DuckDB (the npm package @duckdb/node-api, an
// engine independent of armprof) and print the rows tab-separated, NULL as
// "NULL". Usage: node duckdb.mjs NODE_MODULES_PARENT SQL
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [dir, sql] = process.argv.slice(2);
const require = createRequire(dir.replace(/\/?$/, '/'));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve('@duckdb/node-api')).href);
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await inst.connect();
const result = await con.runAndReadAll(sql);
const show = v => v === null ? 'NULL' : typeof v === 'bigint' ? v.toString() : String(v);
for (const row of result.getRowsJS())
	console.log(row.map(show).join('\t'));
