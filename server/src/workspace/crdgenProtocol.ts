/**
 * The wire format of the CRD generator (go/crdgen: controller-tools as a library, go/crdgen/PROTOCOL.md):
 * the CRDs `controller-gen crd` would write, a source map from schema nodes and the values markers produce
 * back to Go positions, and the markers controller-gen does not apply. Plain data: workspace/goGenerator.ts
 * reads it off the process, service/goTypes.ts maps findings with it.
 */

/** A position in a Go file: absolute path, 1-based line, 1-based byte column, 0-based byte offset. */
export interface GoPos {
  file: string;
  line: number;
  col: number;
  offset?: number;
}

/** A span of one Go file (end exclusive). */
export interface GoSpan extends GoPos {
  endLine: number;
  endCol: number;
  endOffset?: number;
}

/** A marker comment that applies to a CRD, with the values it produced. */
export interface GoMarker {
  /** From its `+` to the end of the comment line. */
  span: GoSpan;
  /** As written, from its `+` (`+kubebuilder:validation:XValidation:rule="..."`). */
  text: string;
  /** The registered name (`kubebuilder:validation:XValidation`). */
  name: string;
  target?: 'package' | 'type' | 'field';
  /** Each argument's value as written (`rule="..."`: the quoted string with its quotes; anonymous: name ""). */
  args?: Array<{ name: string; span: GoSpan }>;
  /** Each value it produced: a JSON pointer into the CRD (`<node>/x-kubernetes-validations/<i>`, `<node>/maximum`). */
  effects: Array<{ pointer: string; keyword?: string }>;
}

/** The Go declaration of a schema node. */
export interface GoNode {
  goType?: string;
  /** The declaration of the named type the node's schema was made from. */
  type?: GoPos;
  /** The struct field it came from. */
  field?: GoPos;
}

/** One generated CRD with its source map. */
export interface GoCrd {
  name: string;
  group?: string;
  kind?: string;
  /** The file name controller-gen writes it to (`<group>_<plural>.yaml`). */
  fileName?: string;
  /** Exactly the bytes controller-gen writes. */
  yaml: string;
  /** The same CRD as JSON. */
  crd?: unknown;
  /** JSON pointer of every schema node -> its Go declaration. */
  nodes?: Record<string, GoNode>;
  markers?: GoMarker[];
}

/** A marker controller-gen does not apply (unknown, wrong target, unknown argument, invalid value). */
export interface GoMarkerProblem {
  span: GoSpan;
  text: string;
  name: string;
  severity: 'warning' | 'error';
  reason: 'unknown-marker' | 'wrong-target' | 'unknown-argument' | 'invalid-value' | string;
  message: string;
  suggestion?: string;
  fix?: { span: GoSpan; newText: string };
}

/** A problem loading or generating. */
export interface GoProblem {
  kind: 'list' | 'syntax' | 'type' | 'generate' | string;
  message: string;
  pos?: GoPos;
}

/** The result of a `generate` request. */
export interface GoGeneration {
  controllerTools?: string;
  options?: Record<string, unknown> & { source?: string; packages?: string[] };
  crds: GoCrd[];
  markerProblems: GoMarkerProblem[];
  errors: GoProblem[];
  stats?: { load?: string; loadMs?: number; generateMs?: number; packagesReparsed?: number; packagesLoaded?: number };
}
