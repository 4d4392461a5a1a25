# Sourced by the tests that read armprof's Parquet files with DuckDB: makes
# the npm package @duckdb/node-api available under $SRC/.cache/npm
# (scripts/install-deps.sh installs it too) and defines `duckdb_sql SQL`.
# Without node/npm, or when the install fails (no network), the test is
# skipped with exit 77 and the reason.
ap_duckdb_dir="$SRC/.cache/npm"
if ! command -v node > /dev/null; then
	echo "SKIP: node is not installed (DuckDB via @duckdb/node-api)"; exit 77
fi
if [ ! -d "$ap_duckdb_dir/node_modules/@duckdb/node-api" ]; then
	if ! command -v npm > /dev/null; then
		echo "SKIP: npm is not installed (needed for @duckdb/node-api)"; exit 77
	fi
	mkdir -p "$ap_duckdb_dir"
	if ! (cd "$ap_duckdb_dir" && npm install --no-audit --no-fund --prefix . @duckdb/node-api > npm-install.log 2>&1); then
		echo "SKIP: npm install @duckdb/node-api failed (see $ap_duckdb_dir/npm-install.log)"; exit 77
	fi
fi
duckdb_sql() {
	node "$SRC/tests/export/duckdb.mjs" "$ap_duckdb_dir" "$1"
}
