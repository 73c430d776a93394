# shellcheck shell=bash disable=SC2034
# servers.sh - sourced by remote.sh: real stores on loopback, each on a free
# port, in a folder of their own under $SRV, stopped by stop_servers (which the
# caller traps on EXIT).
#   start_nginx        nginx with its WebDAV module (PUT, DELETE, full paths;
#                      with NGINX_TLS=1 over https with a certificate of its own):
#                      NGINX_PORT, NGINX_ROOT (what it stores), NGINX_LOG (access log)
#   stop_nginx         a fast shutdown (TERM) of the master and its worker
#   start_redis [PASS] redis-server without persistence: REDIS_PORT
#   start_bad MODE DIR a python3 HTTP server that answers GET from DIR but
#                      damages every /cas/ body (MODE: corrupt, truncated,
#                      oversized, mixed), accepts PUT and discards it: BAD_PORT
#   free_port          a port nothing listens on (bound, then released)

server_pids=()

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_port PORT PID NAME LOG: until PORT accepts a connection (10 s), or fail.
wait_port() {
    local i
    for ((i = 0; i < 100; i++)); do
        if python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()' "$1" 2>/dev/null; then
            return 0
        fi
        kill -0 "$2" 2>/dev/null || break
        sleep 0.1
    done
    echo "FAIL: $3 did not start on port $1:" >&2
    cat "$4" >&2 || true
    exit 1
}

start_nginx() {
    local d=$SRV/nginx user_line="" tls="" listen_opts=""
    rm -rf "$d"
    mkdir -p "$d/root" "$d/tmp"
    if [ "${NGINX_TLS:-}" = 1 ]; then
        # A certificate of the test's own for 127.0.0.1 (NGINX_CERT), which a
        # client trusts only when told to.
        NGINX_CERT=$d/cert.pem
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
            -addext subjectAltName=IP:127.0.0.1 -keyout "$d/key.pem" -out "$NGINX_CERT" \
            >"$d/openssl.log" 2>&1 || { cat "$d/openssl.log" >&2; echo "FAIL: openssl req" >&2; exit 1; }
        listen_opts=" ssl"
        tls="ssl_certificate $NGINX_CERT; ssl_certificate_key $d/key.pem;"
    fi
    NGINX_PORT=$(free_port)
    NGINX_ROOT=$d/root
    NGINX_LOG=$d/access.log
    # Workers run as the user that starts nginx; only root can name one.
    [ "$(id -u)" != 0 ] || user_line="user $(id -un) $(id -gn);"
    cat >"$d/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes 1;
pid $d/nginx.pid;
error_log $d/error.log info;
events { worker_connections 256; }
http {
    log_format dgpb '\$request_method \$request_uri \$status [\$http_x_team_token] [\$remote_user]';
    access_log $d/access.log dgpb;
    client_body_temp_path $d/tmp/body;
    proxy_temp_path $d/tmp/proxy;
    fastcgi_temp_path $d/tmp/fastcgi;
    uwsgi_temp_path $d/tmp/uwsgi;
    scgi_temp_path $d/tmp/scgi;
    client_max_body_size 128m;
    server {
        listen 127.0.0.1:$NGINX_PORT$listen_opts;
        $tls
        root $d/root;
        location / {
            dav_methods PUT DELETE;
            create_full_put_path on;
            dav_access user:rw group:r all:r;
        }
    }
}
EOF
    nginx -p "$d" -e "$d/error.log" -c "$d/nginx.conf" >"$d/stdout.log" 2>&1 &
    NGINX_PID=$!
    server_pids+=("$NGINX_PID")
    wait_port "$NGINX_PORT" "$NGINX_PID" nginx "$d/error.log"
}

stop_nginx() {
    kill -TERM "$NGINX_PID" 2>/dev/null || true
    wait "$NGINX_PID" 2>/dev/null || true
}

start_redis() {
    local d=$SRV/redis pass=${1:-}
    rm -rf "$d"
    mkdir -p "$d"
    REDIS_PORT=$(free_port)
    local args=(--port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$d"
        --logfile "$d/redis.log")
    [ -z "$pass" ] || args+=(--requirepass "$pass")
    redis-server "${args[@]}" >/dev/null 2>&1 &
    REDIS_PID=$!
    server_pids+=("$REDIS_PID")
    wait_port "$REDIS_PORT" "$REDIS_PID" redis-server "$d/redis.log"
}

# rcli ARGS...: redis-cli on the test's server (with REDIS_PASS when set).
rcli() {
    if [ -n "${REDIS_PASS:-}" ]; then
        REDISCLI_AUTH=$REDIS_PASS redis-cli -h 127.0.0.1 -p "$REDIS_PORT" --no-auth-warning "$@"
    else
        redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"
    fi
}

start_bad() {
    local d=$SRV/bad
    mkdir -p "$d"
    BAD_PORT=$(free_port)
    python3 "$HERE/bad_store.py" "$BAD_PORT" "$1" "$2" "$d/requests.log" >"$d/server.log" 2>&1 &
    BAD_PID=$!
    server_pids+=("$BAD_PID")
    wait_port "$BAD_PORT" "$BAD_PID" bad_store.py "$d/server.log"
}

stop_servers() {
    local p
    for p in "${server_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${server_pids[@]}"; do wait "$p" 2>/dev/null || true; done
    server_pids=()
}
