/**
 * kube-openapi's typeValidator (validate/type.go): the JSON type and format of a decoded value.
 */
import { asFloat64, isFloat64AJSONInteger, type GoKind } from '../json/go';
import { invalidTypeError, type OpenAPIError } from './kube-openapi-errors';
import { nameOf, segsOf, type ValuePath } from './result';

/** schemaInfoForType: the JSON type and format kube-openapi infers from a decoded Go value. */
function schemaInfo(kind: GoKind): [string, string] {
  switch (kind) {
    case 'bool':
      return ['boolean', ''];
    case 'string':
      return ['string', ''];
    case 'int':
      return ['integer', 'int64'];
    case 'float':
      return ['number', 'float64'];
    case 'slice':
      return ['array', ''];
    case 'map':
      return ['object', ''];
    default:
      return ['', ''];
  }
}

/** typeValidator.Validate */
export function validateType(data: unknown, kind: GoKind, types: string[], nullable: boolean, format: string, path: ValuePath | null): OpenAPIError | undefined {
  const name = nameOf(path);
  if (kind === 'nil') {
    if (types.length > 0 && !types.includes('null') && !nullable) return invalidTypeError(name, segsOf(path), types.join(','), 'null');
    return undefined;
  }
  const [schType, dataFormat] = schemaInfo(kind);
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(asFloat64(data)) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = kind === 'string' || kind === 'slice';
  if (!stringOrSlice && format !== '' && !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)) {
    return invalidTypeError(name, segsOf(path), format, dataFormat, 'format');
  }
  if (!(types.includes('number') || types.includes('integer')) && format !== '' && stringOrSlice) return undefined;
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return invalidTypeError(name, segsOf(path), types.join(','), schType);
  return undefined;
}
