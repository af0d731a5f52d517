/**
 * Exec credential plugins (client.authentication.k8s.io v1 and v1beta1), run as client-go runs them:
 * the command with its args and env, `KUBERNETES_EXEC_INFO` describing the request (never interactive
 * here: stdin is closed), and an ExecCredential read from stdout. Credentials are kept until they expire.
 * Bounded: a time limit and an output limit.
 */
import type { spawn } from 'node:child_process';
import type { ClusterConnection, ExecConfig } from './kubeconfig';
import { KubeconfigError } from './kubeconfig';

/** What a plugin returned. */
export interface ExecCredential {
  token?: string;
  clientCertificate?: Buffer;
  clientKey?: Buffer;
  /** Milliseconds since the epoch; undefined: valid until the server rejects it. */
  expires?: number;
}

const SUPPORTED = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];
const MAX_OUTPUT = 1024 * 1024;
export const EXEC_TIMEOUT_MS = 60_000;

const cache = new Map<string, ExecCredential>();

function cacheKey(exec: ExecConfig, conn: ClusterConnection): string {
  return JSON.stringify([exec.command, exec.args, exec.env, exec.apiVersion, conn.server]);
}

/** Forgets a cached credential (after the server answered 401 with it). */
export function forgetExecCredential(conn: ClusterConnection): void {
  if (conn.exec) cache.delete(cacheKey(conn.exec, conn));
}

/** Runs the plugin of a connection (or returns its unexpired credential). */
export async function execCredential(conn: ClusterConnection, opts: { timeoutMs?: number; now?: () => number } = {}): Promise<ExecCredential> {
  const exec = conn.exec!;
  const now = opts.now ?? Date.now;
  const key = cacheKey(exec, conn);
  const hit = cache.get(key);
  if (hit && (hit.expires === undefined || hit.expires - 10_000 > now())) return hit;
  if (!SUPPORTED.includes(exec.apiVersion)) {
    throw new KubeconfigError(`exec plugin of user "${conn.user}": apiVersion "${exec.apiVersion}" is not supported (${SUPPORTED.join(', ')})`);
  }
  if (exec.interactiveMode === 'Always') {
    throw new KubeconfigError(`exec plugin "${exec.command}" of user "${conn.user}" needs an interactive terminal (interactiveMode: Always); run kubectl once in a terminal, or use another user`);
  }
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo) {
    spec.cluster = {
      server: conn.server,
      'tls-server-name': conn.tlsServerName,
      'insecure-skip-tls-verify': conn.insecureSkipTlsVerify || undefined,
      'certificate-authority-data': conn.ca?.toString('base64'),
      'proxy-url': conn.proxyUrl,
      config: exec.clusterConfig,
    };
  }
  const info = JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec });
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: info };
  for (const e of exec.env) env[e.name] = e.value;
  const out = await run(exec, env, opts.timeoutMs ?? EXEC_TIMEOUT_MS);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(out) as Record<string, unknown>;
  } catch {
    throw new KubeconfigError(`exec plugin "${exec.command}" did not print an ExecCredential (JSON) on stdout`);
  }
  if (parsed.kind !== 'ExecCredential' || parsed.apiVersion !== exec.apiVersion) {
    throw new KubeconfigError(`exec plugin "${exec.command}" printed ${String(parsed.apiVersion)}/${String(parsed.kind)}, expected ${exec.apiVersion} ExecCredential`);
  }
  const status = (parsed.status ?? {}) as Record<string, unknown>;
  const cred: ExecCredential = {};
  if (typeof status.token === 'string' && status.token) cred.token = status.token;
  if (typeof status.clientCertificateData === 'string' && typeof status.clientKeyData === 'string') {
    cred.clientCertificate = Buffer.from(status.clientCertificateData);
    cred.clientKey = Buffer.from(status.clientKeyData);
  }
  if (!cred.token && !cred.clientCertificate) throw new KubeconfigError(`exec plugin "${exec.command}" returned neither a token nor a client certificate`);
  if (typeof status.expirationTimestamp === 'string') {
    const t = Date.parse(status.expirationTimestamp);
    if (!Number.isNaN(t)) cred.expires = t;
  }
  cache.set(key, cred);
  return cred;
}

function run(exec: ExecConfig, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      // Loaded here: only a kubeconfig with an exec plugin needs child processes.
      child = (require('node:child_process') as { spawn: typeof spawn }).spawn(exec.command, exec.args, { env, stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    } catch (e) {
      reject(new KubeconfigError(`cannot run exec plugin "${exec.command}": ${(e as Error).message}`));
      return;
    }
    const out: Buffer[] = [];
    let size = 0;
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new KubeconfigError(`exec plugin "${exec.command}" did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_OUTPUT) {
        child.kill('SIGKILL');
        return;
      }
      out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => {
      if (stderr.length < 4000) stderr += b.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const hint = e.code === 'ENOENT' && exec.installHint ? `\n${exec.installHint}` : '';
      reject(new KubeconfigError(`cannot run exec plugin "${exec.command}": ${e.code === 'ENOENT' ? 'not found' : e.message}${hint}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (size > MAX_OUTPUT) reject(new KubeconfigError(`exec plugin "${exec.command}" printed more than ${MAX_OUTPUT} bytes`));
      else if (code !== 0) reject(new KubeconfigError(`exec plugin "${exec.command}" failed (exit code ${code})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`));
      else resolve(Buffer.concat(out).toString('utf8'));
    });
  });
}
