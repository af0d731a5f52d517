/**
 * kubeconfig files as kubectl reads them (client-go tools/clientcmd): the files named by `--kubeconfig`,
 * else by `$KUBECONFIG` (a path list, merged: the first file that sets a cluster, user, context or the
 * current context wins), else `~/.kube/config`; relative paths in a file are relative to that file.
 * Reading only: nothing here contacts a cluster or runs a program.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';

/** An exec credential plugin (client.authentication.k8s.io). */
export interface ExecConfig {
  apiVersion: string;
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  /** `Never`, `IfAvailable` or `Always` (v1 requires it; v1beta1 defaults to IfAvailable). */
  interactiveMode?: string;
  provideClusterInfo: boolean;
  installHint?: string;
  /** The cluster's `extensions["client.authentication.k8s.io/exec"]`, passed to the plugin with the cluster info. */
  clusterConfig?: unknown;
}

/** Everything needed to reach the API server of one context. */
export interface ClusterConnection {
  context: string;
  cluster: string;
  user: string;
  /** The API server's URL, e.g. `https://127.0.0.1:6443` (a path prefix is kept). */
  server: string;
  namespace?: string;
  /** PEM bundle to verify the server with (file contents or decoded `-data`). */
  ca?: Buffer;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  clientCertificate?: Buffer;
  clientKey?: Buffer;
  token?: string;
  /** Read at each request: kubelet-style token files rotate. */
  tokenFile?: string;
  username?: string;
  password?: string;
  exec?: ExecConfig;
  proxyUrl?: string;
  /** Where each field came from, for messages (`kubeconfig /home/u/.kube/config`). */
  source: string;
}

/** A kubeconfig problem, said in the kubeconfig's own terms. */
export class KubeconfigError extends Error {}

interface Named<T> {
  name: string;
  value: T;
  file: string;
}

/** The merged kubeconfig. */
export interface Kubeconfig {
  files: string[];
  currentContext?: string;
  contexts: Named<Record<string, unknown>>[];
  clusters: Named<Record<string, unknown>>[];
  users: Named<Record<string, unknown>>[];
}

/** The kubeconfig files kubectl would read, in order (`explicit`: `--kubeconfig`). */
export function kubeconfigPaths(explicit?: string, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string[] {
  if (explicit) return [path.resolve(explicit)];
  const list = (env.KUBECONFIG ?? '').split(path.delimiter).filter((p) => p !== '');
  if (list.length) return [...new Set(list.map((p) => path.resolve(p)))];
  return [path.join(home, '.kube', 'config')];
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Why a kubeconfig file could not be read, in words (not Node's error code); where kubectl looks when it was not named. */
function readProblem(e: NodeJS.ErrnoException, defaulted: boolean): string {
  const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'it is a folder' : (e.code ?? e.message);
  return e.code === 'ENOENT' && defaulted ? `${why} (kubectl reads the files $KUBECONFIG lists, else ~/.kube/config: create one or set KUBECONFIG)` : why;
}

/**
 * Reads and merges kubeconfig files. A missing file in a `$KUBECONFIG` list is skipped (as kubectl does);
 * a missing `--kubeconfig` file or unparsable YAML is an error.
 */
export async function loadKubeconfig(files: string[], opts: { explicit?: boolean } = {}): Promise<Kubeconfig> {
  const cfg: Kubeconfig = { files: [], contexts: [], clusters: [], users: [] };
  for (const file of files) {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      if (opts.explicit || files.length === 1) throw new KubeconfigError(`cannot read kubeconfig ${file}: ${readProblem(e as NodeJS.ErrnoException, !opts.explicit)}`);
      continue;
    }
    let doc: unknown;
    try {
      doc = parse(text, { maxAliasCount: 100, logLevel: 'error' });
    } catch (e) {
      throw new KubeconfigError(`kubeconfig ${file} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    cfg.files.push(file);
    const d = obj(doc);
    cfg.currentContext ??= str(d['current-context']);
    const add = (list: Named<Record<string, unknown>>[], entries: unknown, field: string) => {
      for (const e of Array.isArray(entries) ? entries : []) {
        const name = str(obj(e).name);
        if (name && !list.some((x) => x.name === name)) list.push({ name, value: obj(obj(e)[field]), file });
      }
    };
    add(cfg.contexts, d.contexts, 'context');
    add(cfg.clusters, d.clusters, 'cluster');
    add(cfg.users, d.users, 'user');
  }
  return cfg;
}

async function readRelative(file: string, ref: string): Promise<Buffer> {
  const p = path.resolve(path.dirname(file), ref);
  try {
    return await fs.readFile(p);
  } catch (e) {
    throw new KubeconfigError(`cannot read ${p} (named in kubeconfig ${file}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function base64(v: string, what: string, file: string): Buffer {
  const b = Buffer.from(v, 'base64');
  if (b.length === 0) throw new KubeconfigError(`${what} in kubeconfig ${file} is not base64 data`);
  return b;
}

/** The connection of a context (the current one by default), with files read and data decoded. */
export async function connectionFor(cfg: Kubeconfig, contextName?: string): Promise<ClusterConnection> {
  const name = contextName ?? cfg.currentContext;
  const where = cfg.files.join(', ') || 'no kubeconfig file';
  if (!name) throw new KubeconfigError(`no current context in ${where}; name one (--context) from: ${cfg.contexts.map((c) => c.name).join(', ') || 'none defined'}`);
  const ctx = cfg.contexts.find((c) => c.name === name);
  if (!ctx) throw new KubeconfigError(`context "${name}" is not defined in ${where} (contexts: ${cfg.contexts.map((c) => c.name).join(', ') || 'none'})`);
  const clusterName = str(ctx.value.cluster);
  const cluster = cfg.clusters.find((c) => c.name === clusterName);
  if (!cluster) throw new KubeconfigError(`context "${name}" names cluster "${clusterName ?? ''}", which is not defined in ${where}`);
  const userName = str(ctx.value.user) ?? '';
  const user = cfg.users.find((u) => u.name === userName);
  if (userName && !user) throw new KubeconfigError(`context "${name}" names user "${userName}", which is not defined in ${where}`);
  const c = cluster.value;
  const u = user?.value ?? {};
  const server = str(c.server);
  if (!server) throw new KubeconfigError(`cluster "${cluster.name}" in ${cluster.file} has no server`);
  const conn: ClusterConnection = {
    context: name,
    cluster: cluster.name,
    user: userName,
    server: server.replace(/\/+$/, ''),
    namespace: str(ctx.value.namespace),
    insecureSkipTlsVerify: c['insecure-skip-tls-verify'] === true,
    tlsServerName: str(c['tls-server-name']),
    proxyUrl: str(c['proxy-url']),
    source: `kubeconfig ${cluster.file}`,
  };
  if (str(c['certificate-authority-data'])) conn.ca = base64(c['certificate-authority-data'] as string, `certificate-authority-data of cluster "${cluster.name}"`, cluster.file);
  else if (str(c['certificate-authority'])) conn.ca = await readRelative(cluster.file, c['certificate-authority'] as string);
  const ufile = user?.file ?? cluster.file;
  if (str(u['client-certificate-data'])) conn.clientCertificate = base64(u['client-certificate-data'] as string, `client-certificate-data of user "${userName}"`, ufile);
  else if (str(u['client-certificate'])) conn.clientCertificate = await readRelative(ufile, u['client-certificate'] as string);
  if (str(u['client-key-data'])) conn.clientKey = base64(u['client-key-data'] as string, `client-key-data of user "${userName}"`, ufile);
  else if (str(u['client-key'])) conn.clientKey = await readRelative(ufile, u['client-key'] as string);
  conn.token = str(u.token);
  if (!conn.token && str(u.tokenFile)) conn.tokenFile = path.resolve(path.dirname(ufile), u.tokenFile as string);
  conn.username = str(u.username);
  conn.password = str(u.password);
  const ap = obj(u['auth-provider']);
  if (str(ap.name)) {
    // The in-tree auth providers were removed from client-go (1.26) except oidc; its id-token is a bearer token.
    const idToken = str(obj(ap.config)['id-token']);
    if (ap.name === 'oidc' && idToken && !conn.token) conn.token = idToken;
    else if (!conn.token) throw new KubeconfigError(`user "${userName}" uses auth-provider "${ap.name}", which kubectl no longer supports; use an exec credential plugin`);
  }
  const exec = obj(u.exec);
  if (str(exec.command)) {
    const command = exec.command as string;
    conn.exec = {
      apiVersion: str(exec.apiVersion) ?? '',
      // A relative command with a separator is relative to the kubeconfig (client-go ResolvePaths).
      command: command.includes('/') && !path.isAbsolute(command) ? path.resolve(path.dirname(ufile), command) : command,
      args: (Array.isArray(exec.args) ? exec.args : []).map(String),
      env: (Array.isArray(exec.env) ? exec.env : []).map((e) => ({ name: String(obj(e).name ?? ''), value: String(obj(e).value ?? '') })).filter((e) => e.name !== ''),
      interactiveMode: str(exec.interactiveMode),
      provideClusterInfo: exec.provideClusterInfo === true,
      installHint: str(exec.installHint),
      clusterConfig: findExtension(c.extensions),
    };
  }
  return conn;
}

/** `extensions: [{name: client.authentication.k8s.io/exec, extension: {...}}]` of a cluster. */
function findExtension(exts: unknown): unknown {
  for (const e of Array.isArray(exts) ? exts : []) if (obj(e).name === 'client.authentication.k8s.io/exec') return obj(e).extension;
  return undefined;
}

/** Context names of a kubeconfig, the current one first. */
export function contextNames(cfg: Kubeconfig): string[] {
  const names = cfg.contexts.map((c) => c.name);
  return cfg.currentContext && names.includes(cfg.currentContext) ? [cfg.currentContext, ...names.filter((n) => n !== cfg.currentContext)] : names;
}
