/**
 * kube-openapi's typeValidator (validate/type.go): the JSON type and format of a decoded value.
 */
import { asFloat64, isFloat64AJSONInteger, type GoKind } from '../json/go';
import { invalidTypeError, type OpenAPIError } from './kube-openapi-errors';
import { pathName, pathSegments } from './result';

// The answers of schemaInfo, made once (it runs for every node of every object).
const BOOLEAN = ['boolean', ''] as const;
const STRING = ['string', ''] as const;
const INTEGER = ['integer', 'int64'] as const;
const NUMBER = ['number', 'float64'] as const;
const ARRAY = ['array', ''] as const;
const OBJECT = ['object', ''] as const;
const NONE = ['', ''] as const;

/** schemaInfoForType: the JSON type and format kube-openapi infers from a decoded Go value. */
function schemaInfo(kind: GoKind): readonly [string, string] {
  switch (kind) {
    case 'bool':
      return BOOLEAN;
    case 'string':
      return STRING;
    case 'int':
      return INTEGER;
    case 'float':
      return NUMBER;
    case 'slice':
      return ARRAY;
    case 'map':
      return OBJECT;
    default:
      return NONE;
  }
}

/** typeValidator.Validate; `wanted`: the types joined with commas. */
export function validateType(data: unknown, kind: GoKind, types: string[], wanted: string, nullable: boolean, format: string): OpenAPIError | undefined {
  // The path's name is spelled only for an error: every node of every object passes here.
  if (kind === 'nil') {
    if (types.length > 0 && !types.includes('null') && !nullable) return invalidTypeError(pathName(), pathSegments(), wanted, 'null');
    return undefined;
  }
  const info = schemaInfo(kind);
  const schType = info[0];
  const dataFormat = info[1];
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(asFloat64(data)) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = kind === 'string' || kind === 'slice';
  if (!stringOrSlice && format !== '' && !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)) {
    return invalidTypeError(pathName(), pathSegments(), format, dataFormat, 'format');
  }
  if (!(types.includes('number') || types.includes('integer')) && format !== '' && stringOrSlice) return undefined;
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return invalidTypeError(pathName(), pathSegments(), wanted, schType);
  return undefined;
}
