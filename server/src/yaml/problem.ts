/** A YAML syntax error or warning, or what kubectl makes of a document; offsets as the producer states. */
export interface YamlSyntaxError {
  severity: 'error' | 'warning';
  /**
   * What is wrong: the `yaml` package's error code for syntax errors (`BAD_INDENT`, `MISSING_CHAR`,
   * ...), or this layer's code for what kubectl refuses or drops (`NOT_JSON`, `BAD_ESCAPE`,
   * `TAG_MISMATCH`, `INVALID_MAP_KEY`, `BAD_MERGE`, `UNKNOWN_ANCHOR`, `ALIAS_CYCLE`,
   * `EXCESSIVE_ALIASING`, `CONTROL_CHARACTER`, `DIRECTIVE`, `DOCUMENT_SEPARATOR`, `DUPLICATE_KEY`,
   * `IGNORED_DOCUMENT`) or for a bound that stopped the parse (`RESOURCE_EXHAUSTION`).
   */
  code: string;
  /** For people, without position decorations: what is wrong first (kubectl's own text is in `kubectl`). */
  message: string;
  /** The error kubectl prints when it refuses the document for this reason (sigs.k8s.io/yaml's text). */
  kubectl?: string;
  start: number;
  end: number;
}
