/**
 * core/validation.ValidateConfigMap and ValidateSecret: data keys, the 1 MiB total, a key in both data
 * and binaryData, and the keys each Secret type requires. A Secret's stringData is merged into data
 * first (its v1 conversion), its data values counted decoded. The JSON of docker config Secrets is not
 * checked (the message is encoding/json's).
 */
import { FieldPath, invalid, required, tooLong, type FieldError } from '../../field';
import { utf8Length } from '../../json/go';
import { isConfigMapKey } from './podspec';
import { obj, str, type JSONObject } from './values';

/** core.MaxSecretSize, also the ConfigMap limit. */
const MAX_SIZE = 1024 * 1024;

/** ValidateConfigMap without the metadata. */
export function validateConfigMap(object: JSONObject, errs: FieldError[]): void {
  const data = obj(object.data);
  const binary = obj(object.binaryData);
  let total = 0;
  for (const key of Object.keys(data)) {
    for (const m of isConfigMapKey(key)) errs.push(invalid(FieldPath.root('data').key(key), key, m));
    if (Object.hasOwn(binary, key)) errs.push(invalid(FieldPath.root('data').key(key), key, 'duplicate of key present in binaryData'));
    total += utf8Length(str(data[key]));
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const m of isConfigMapKey(key)) errs.push(invalid(FieldPath.root('binaryData').key(key), key, m));
    total += Buffer.from(str(value), 'base64').length;
  }
  // field.NewPath(""): the whole object, which the API server's cause names `[]`.
  if (total > MAX_SIZE) errs.push(tooLong('[]', '', MAX_SIZE));
}

/** The keys each Secret type requires (ValidateSecret's switch). */
function validateSecretType(type: string, data: Record<string, number>, dataPath: FieldPath): FieldError[] {
  const has = (k: string) => Object.hasOwn(data, k);
  switch (type) {
    case 'kubernetes.io/dockercfg':
      return has('.dockercfg') ? [] : [required(dataPath.key('.dockercfg'), '')];
    case 'kubernetes.io/dockerconfigjson':
      return has('.dockerconfigjson') ? [] : [required(dataPath.key('.dockerconfigjson'), '')];
    case 'kubernetes.io/basic-auth':
      return has('username') || has('password') ? [] : [required(dataPath.key('username'), ''), required(dataPath.key('password'), '')];
    case 'kubernetes.io/ssh-auth':
      return (data['ssh-privatekey'] ?? 0) > 0 ? [] : [required(dataPath.key('ssh-privatekey'), '')];
    case 'kubernetes.io/tls':
      return [...(has('tls.crt') ? [] : [required(dataPath.key('tls.crt'), '')]), ...(has('tls.key') ? [] : [required(dataPath.key('tls.key'), '')])];
    default:
      return [];
  }
}

/** ValidateSecret without the metadata (the service-account-token annotation is checked too). */
export function validateSecret(object: JSONObject, errs: FieldError[]): void {
  const dataPath = FieldPath.root('data');
  // Convert_v1_Secret_To_core_Secret: stringData overwrites data; sizes are of the decoded bytes.
  const sizes: Record<string, number> = {};
  for (const [k, v] of Object.entries(obj(object.data))) sizes[k] = Buffer.from(str(v), 'base64').length;
  for (const [k, v] of Object.entries(obj(object.stringData))) sizes[k] = utf8Length(str(v));
  let total = 0;
  for (const [key, size] of Object.entries(sizes)) {
    for (const m of isConfigMapKey(key)) errs.push(invalid(dataPath.key(key), key, m));
    total += size;
  }
  if (total > MAX_SIZE) errs.push(tooLong(dataPath, '', MAX_SIZE));
  const type = str(object.type);
  if (type === 'kubernetes.io/service-account-token') {
    const annotations = obj(obj(object.metadata).annotations);
    if (str(annotations['kubernetes.io/service-account.name']).length === 0) errs.push(required(FieldPath.root('metadata', 'annotations').key('kubernetes.io/service-account.name'), ''));
  }
  errs.push(...validateSecretType(type, sizes, dataPath));
}
