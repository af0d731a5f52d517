/**
 * A real kube-apiserver (+ etcd) for tests, built by ../shared/kube-apiserver/setup.sh and started on
 * loopback by its start.sh with a private run folder and free ports, so several test files (and several
 * checkouts) can each have their own. Binaries are looked up in $KAPI_DIR, then ~/.cache/crd-yaml/kapi
 * (where .ci/run builds them). Without them, `kapiAvailable()` says why, and tests skip, unless
 * KAPI_REQUIRED=1 (set by .ci/run's API server tier), where a missing build fails the run instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedPath } from '../shared';

const SHARED = sharedPath('kube-apiserver');

/** The folder holding bin/{etcd,kube-apiserver,kubectl}, or undefined. */
export function kapiDir(): string | undefined {
  const candidates = [process.env.KAPI_DIR, join(homedir(), '.cache', 'crd-yaml', 'kapi')].filter((d): d is string => !!d);
  const d = candidates.find((c) => ['etcd', 'kube-apiserver', 'kubectl'].every((b) => existsSync(join(c, 'bin', b))));
  // start.sh/stop.sh compare /proc/PID/exe (a real path) with DIR/bin/NAME: DIR must be a real path.
  return d && realpathSync(d);
}

/** Undefined when a server can be started; else the reason to skip (or, with KAPI_REQUIRED=1, to fail). */
export function kapiUnavailable(): string | undefined {
  if (!existsSync(join(SHARED, 'start.sh'))) return `${SHARED}/start.sh not found (../shared beside the checkout)`;
  if (!kapiDir()) return 'kube-apiserver binaries not built (run: bash ../shared/kube-apiserver/setup.sh ~/.cache/crd-yaml/kapi)';
  return undefined;
}

/** For node:test's `skip` option: the reason, or false; throws when KAPI_REQUIRED=1 and unavailable. */
export function skipWithoutKapi(): string | false {
  const why = kapiUnavailable();
  if (why && process.env.KAPI_REQUIRED === '1') throw new Error(`KAPI_REQUIRED=1 but ${why}`);
  return why ?? false;
}

export interface ApiServer {
  /** Path of a kubeconfig (client certificate auth, current context `kapi`). */
  kubeconfig: string;
  /** https://127.0.0.1:PORT */
  url: string;
  /** PEM files of the kubeconfig: CA, client certificate, client key. */
  ca: string;
  cert: string;
  key: string;
  /** The kubectl binary of the build. */
  kubectl: string;
  /** An HTTPS request with the admin client certificate; JSON bodies in and out. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: IncomingHttpHeaders }>;
  /** Applies CRDs (objects) and waits until each is Established (or fails with the server's answer). */
  createCrds(crds: unknown[]): Promise<void>;
  /** Stops etcd and kube-apiserver and deletes the run folder. */
  stop(): void;
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

/**
 * Starts a fresh etcd + kube-apiserver. `flags` are extra kube-apiserver flags (for example
 * `--emulated-version=1.34`). Readiness is awaited by start.sh (KAPI_READY_TIMEOUT, 180 s by default).
 */
export async function startApiServer(opts: { flags?: string[] } = {}): Promise<ApiServer> {
  const dir = kapiDir();
  if (!dir) throw new Error(kapiUnavailable());
  const run = mkdtempSync(join(tmpdir(), 'crd-yaml-kapi-'));
  const [api, etcd, peer] = [await freePort(), await freePort(), await freePort()];
  const env = {
    ...process.env,
    KAPI_RUN_DIR: run,
    KAPI_PORT: String(api),
    KAPI_ETCD_PORT: String(etcd),
    KAPI_ETCD_PEER_PORT: String(peer),
    KAPI_APISERVER_FLAGS: (opts.flags ?? []).join(' '),
    KUBECACHEDIR: join(run, 'kube-cache'),
  };
  const r = spawnSync('bash', [join(SHARED, 'start.sh'), dir, '--fresh'], { env, encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(run, { recursive: true, force: true });
    throw new Error(`start.sh failed (${r.status}): ${r.stderr.slice(-2000)}`);
  }
  const kubeconfig = r.stdout.trim().split('\n').pop()!;
  const pki = join(run, 'pki');
  const ca = readFileSync(join(pki, 'ca.crt'));
  const cert = readFileSync(join(pki, 'admin.crt'));
  const key = readFileSync(join(pki, 'admin.key'));
  const url = `https://127.0.0.1:${api}`;
  const request: ApiServer['request'] = (method, path, body, headers = {}) =>
    new Promise((res, rej) => {
      const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const req = httpsRequest(`${url}${path}`, { method, ca, cert, key, headers: { Accept: 'application/json', ...(data ? { 'Content-Type': 'application/json' } : {}), ...headers } }, (resp) => {
        const chunks: Buffer[] = [];
        resp.on('data', (c) => chunks.push(c));
        resp.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          res({ status: resp.statusCode ?? 0, body: parsed, headers: resp.headers });
        });
      });
      req.on('error', rej);
      if (data) req.write(data);
      req.end();
    });
  const server: ApiServer = {
    kubeconfig,
    url,
    ca: join(pki, 'ca.crt'),
    cert: join(pki, 'admin.crt'),
    key: join(pki, 'admin.key'),
    kubectl: join(dir, 'bin', 'kubectl'),
    request,
    async createCrds(crds) {
      for (const crd of crds) {
        const r = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
        if (r.status >= 300 && r.status !== 409) throw new Error(`creating CRD failed (${r.status}): ${JSON.stringify(r.body).slice(0, 2000)}`);
      }
      // Established is set by the apiserver's own controller; discovery of the new resources follows.
      for (const crd of crds) {
        const name = (crd as { metadata: { name: string } }).metadata.name;
        for (let i = 0; ; i++) {
          const r = await request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
          const conds: { type: string; status: string }[] = r.body?.status?.conditions ?? [];
          if (conds.some((c) => c.type === 'Established' && c.status === 'True')) break;
          if (i > 600) throw new Error(`CRD ${name} not Established after 60 s`);
          await new Promise((res) => setTimeout(res, 100));
        }
      }
    },
    stop() {
      spawnSync('bash', [join(SHARED, 'stop.sh'), dir, '--purge'], { env, encoding: 'utf8' });
      rmSync(run, { recursive: true, force: true });
    },
  };
  return server;
}
