/**
 * The `crdYaml.*` settings as the workers read them from the object the client sends (the main thread
 * forwards that object as it is: it holds no code that knows what the settings mean).
 */
import type { CompatSeverity } from '../engine';
import { parseKubernetesVersion } from '../engine';
import type { CelLintCode, CelLintSeverity } from '../service';
import type { FieldValidation, UnknownKinds } from '../service';
import { CEL_LINT_SCOPES, type CelLintScope } from '../service';

export interface WorkerSettings {
  crdPaths: string[];
  exclude: string[];
  unknownKinds: UnknownKinds;
  fieldValidation: FieldValidation;
  diagnosticsDelayMs: number;
  /** `git:HEAD` (default), `git:<ref>`, `cluster` or `none`: what open files are checked as updates of. */
  baseline: string;
  /** Severities of CRD compatibility categories. */
  compatibility: Record<string, CompatSeverity>;
  /** `crdYaml.kubernetesVersion` (`1.30` .. `1.37`) as a minor; undefined: the newest. */
  kubernetesMinor?: number;
  /** `crdYaml.cel.*`: severities of the CEL lints. */
  celLints: Partial<Record<CelLintCode, CelLintSeverity>>;
  /** `crdYaml.cel.lintScope`: the CRDs the CEL lints run on. */
  celLintScope: CelLintScope;
  /** `crdYaml.builtins`: built-in kinds checked too (service/builtins.ts). */
  builtins: boolean;
  /** The whole `crdYaml` settings object, for the repository features (lsp/repository.ts). */
  raw: Record<string, unknown>;
}

export const DEFAULT_WORKER_SETTINGS: WorkerSettings = {
  crdPaths: ['**/*.yaml', '**/*.yml'],
  exclude: ['**/node_modules/**', '**/.git/**'],
  unknownKinds: 'file',
  fieldValidation: 'Strict',
  diagnosticsDelayMs: 0,
  baseline: 'git:HEAD',
  compatibility: {},
  celLints: {},
  celLintScope: 'authored',
  builtins: true,
  raw: {},
};

const COMPAT_SEVERITIES = ['error', 'warning', 'information', 'off'];

/** Reads the `crdYaml` settings object (a value of the wrong type keeps the default). */
export function readWorkerSettings(raw: unknown): WorkerSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_WORKER_SETTINGS;
  const strings = (v: unknown, dflt: string[]) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : dflt);
  return {
    crdPaths: strings(r.crdPaths, d.crdPaths),
    exclude: strings(r.exclude, d.exclude),
    unknownKinds: r.unknownKinds === 'hint' || r.unknownKinds === 'ignore' ? r.unknownKinds : 'file',
    fieldValidation: r.fieldValidation === 'Warn' || r.fieldValidation === 'Ignore' ? r.fieldValidation : 'Strict',
    diagnosticsDelayMs: typeof r.diagnosticsDelayMs === 'number' && r.diagnosticsDelayMs >= 0 ? r.diagnosticsDelayMs : 0,
    baseline: typeof r.baseline === 'string' && r.baseline.trim() ? r.baseline.trim() : d.baseline,
    compatibility: Object.fromEntries(
      Object.entries(r.compatibility && typeof r.compatibility === 'object' ? (r.compatibility as Record<string, unknown>) : {}).filter(
        (e): e is [string, CompatSeverity] => typeof e[1] === 'string' && COMPAT_SEVERITIES.includes(e[1]),
      ),
    ),
    kubernetesMinor: typeof r.kubernetesVersion === 'string' ? parseKubernetesVersion(r.kubernetesVersion) : undefined,
    celLints: readCelLints(r.cel),
    celLintScope: readCelLintScope(r.cel),
    builtins: r.builtins !== false,
    raw: r,
  };
}

/** `crdYaml.cel.noSuchKey`, `.constantRule`, `.emptyMessage`: the CEL lints' severities (service/celLints.ts). */
function readCelLints(raw: unknown): Partial<Record<CelLintCode, CelLintSeverity>> {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const out: Partial<Record<CelLintCode, CelLintSeverity>> = {};
  for (const [setting, code] of Object.entries(CEL_LINT_SETTINGS)) {
    const v = r[setting];
    if (typeof v === 'string' && LINT_SEVERITIES.includes(v)) out[code] = v as CelLintSeverity;
  }
  return out;
}

/** `crdYaml.cel.lintScope` (service/lintScope.ts). */
function readCelLintScope(raw: unknown): CelLintScope {
  const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).lintScope : undefined;
  return CEL_LINT_SCOPES.find((s) => s === v) ?? 'authored';
}

const LINT_SEVERITIES = ['error', 'warning', 'information', 'hint', 'off'];
const CEL_LINT_SETTINGS: Record<string, CelLintCode> = { noSuchKey: 'CELNoSuchKey', constantRule: 'CELConstantRule', emptyMessage: 'CELEmptyMessage' };
