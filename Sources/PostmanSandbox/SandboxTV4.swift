/// `tv4` (Tiny Validator for JSON Schema draft-04, which postman-sandbox bundles and Debian does not
/// package), our own module over Debian's ajv 6 (`node-ajv`), loaded as `require('tv4')` or the legacy `tv4`
/// global.
///
/// tv4's API and draft-04 meanings: `validate(data, schema)` returns a boolean and sets `tv4.valid`,
/// `tv4.error` (the first error) and `tv4.missing`; `validateResult` gives `{valid, error, missing}`;
/// `validateMultiple` gives `{valid, errors, missing}`; `addSchema(uri, schema)` (or a schema with an `id`),
/// `getSchema`, `dropSchemas`/`reset`, `addFormat(name, fn)` (fn returns null when valid, else a message),
/// `errorCodes`, `freshApi()`. As in tv4: schemas are not validated against their meta-schema, `id` sets the
/// base URI, no `format` is checked unless added with `addFormat` (applied to strings only, ajv's rule, where
/// tv4 applies it to any value), and a `$ref` to a schema nobody added
/// passes and is listed in `missing` (URIs without fragment). Errors carry tv4's `code` (`errorCodes`),
/// `dataPath` and `schemaPath` as JSON pointers, and tv4's message for the common keywords (`Invalid type:
/// string (expected number)`, `Missing required property: id`…); other keywords have ajv's message. What
/// differs: `banUnknownProperties` and `checkRecursive` are ignored, and errors have no `subErrors`.
enum SandboxTV4 {
    static let source = #"""
var codes = {
  INVALID_TYPE: 0, ENUM_MISMATCH: 1, ANY_OF_MISSING: 10, ONE_OF_MISSING: 11, ONE_OF_MULTIPLE: 12, NOT_PASSED: 13,
  NUMBER_MULTIPLE_OF: 100, NUMBER_MINIMUM: 101, NUMBER_MINIMUM_EXCLUSIVE: 102, NUMBER_MAXIMUM: 103,
  NUMBER_MAXIMUM_EXCLUSIVE: 104, NUMBER_NOT_A_NUMBER: 105, STRING_LENGTH_SHORT: 200, STRING_LENGTH_LONG: 201,
  STRING_PATTERN: 202, OBJECT_PROPERTIES_MINIMUM: 300, OBJECT_PROPERTIES_MAXIMUM: 301, OBJECT_REQUIRED: 302,
  OBJECT_ADDITIONAL_PROPERTIES: 303, OBJECT_DEPENDENCY_KEY: 304, ARRAY_LENGTH_SHORT: 400, ARRAY_LENGTH_LONG: 401,
  ARRAY_UNIQUE: 402, ARRAY_ADDITIONAL_ITEMS: 403, FORMAT_CUSTOM: 500, KEYWORD_CUSTOM: 501, CIRCULAR_REFERENCE: 600,
  UNKNOWN_PROPERTY: 1000
};

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
function at(data, pointer) {
  return pointer.split('/').slice(1).reduce(function (value, part) {
    return value === undefined || value === null ? undefined : value[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }, data);
}
// One ajv error as tv4 reports it: code, message, params, dataPath and schemaPath (JSON pointers).
function convert(error, data) {
  var p = error.params || {}, value = at(data, error.dataPath), code, message, params = {};
  switch (error.keyword) {
    case 'type':
      code = codes.INVALID_TYPE; params = { type: typeOf(value), expected: String(p.type).replace(/,/g, '/') };
      message = 'Invalid type: ' + params.type + ' (expected ' + params.expected + ')'; break;
    case 'enum': code = codes.ENUM_MISMATCH; params = { value: JSON.stringify(value) }; message = 'No enum match for: ' + params.value; break;
    case 'required':
      code = codes.OBJECT_REQUIRED; params = { key: p.missingProperty }; message = 'Missing required property: ' + p.missingProperty; break;
    case 'minimum':
      code = p.exclusive ? codes.NUMBER_MINIMUM_EXCLUSIVE : codes.NUMBER_MINIMUM; params = { value: value, minimum: p.limit };
      message = 'Value ' + value + (p.exclusive ? ' is equal to exclusive minimum ' : ' is less than minimum ') + p.limit; break;
    case 'exclusiveMinimum':
      code = codes.NUMBER_MINIMUM_EXCLUSIVE; params = { value: value, minimum: p.limit };
      message = 'Value ' + value + ' is equal to exclusive minimum ' + p.limit; break;
    case 'maximum':
      code = p.exclusive ? codes.NUMBER_MAXIMUM_EXCLUSIVE : codes.NUMBER_MAXIMUM; params = { value: value, maximum: p.limit };
      message = 'Value ' + value + (p.exclusive ? ' is equal to exclusive maximum ' : ' is greater than maximum ') + p.limit; break;
    case 'exclusiveMaximum':
      code = codes.NUMBER_MAXIMUM_EXCLUSIVE; params = { value: value, maximum: p.limit };
      message = 'Value ' + value + ' is equal to exclusive maximum ' + p.limit; break;
    case 'multipleOf':
      code = codes.NUMBER_MULTIPLE_OF; params = { value: value, multipleOf: p.multipleOf };
      message = 'Value ' + value + ' is not a multiple of ' + p.multipleOf; break;
    case 'minLength':
      code = codes.STRING_LENGTH_SHORT; params = { length: value.length, minimum: p.limit };
      message = 'String is too short (' + value.length + ' chars), minimum ' + p.limit; break;
    case 'maxLength':
      code = codes.STRING_LENGTH_LONG; params = { length: value.length, maximum: p.limit };
      message = 'String is too long (' + value.length + ' chars), maximum ' + p.limit; break;
    case 'pattern': code = codes.STRING_PATTERN; params = { pattern: p.pattern }; message = 'String does not match pattern: ' + p.pattern; break;
    case 'minProperties':
      code = codes.OBJECT_PROPERTIES_MINIMUM; params = { propertyCount: Object.keys(value).length, minimum: p.limit };
      message = 'Too few properties defined (' + params.propertyCount + '), minimum ' + p.limit; break;
    case 'maxProperties':
      code = codes.OBJECT_PROPERTIES_MAXIMUM; params = { propertyCount: Object.keys(value).length, maximum: p.limit };
      message = 'Too many properties defined (' + params.propertyCount + '), maximum ' + p.limit; break;
    case 'additionalProperties':
      code = codes.OBJECT_ADDITIONAL_PROPERTIES; params = { key: p.additionalProperty }; message = 'Additional properties not allowed'; break;
    case 'dependencies':
      code = codes.OBJECT_DEPENDENCY_KEY; params = { key: p.missingProperty, missing: p.property };
      message = 'Dependency failed - key must exist: ' + p.missingProperty + ' (due to key: ' + p.property + ')'; break;
    case 'minItems':
      code = codes.ARRAY_LENGTH_SHORT; params = { length: value.length, minimum: p.limit };
      message = 'Array is too short (' + value.length + '), minimum ' + p.limit; break;
    case 'maxItems':
      code = codes.ARRAY_LENGTH_LONG; params = { length: value.length, maximum: p.limit };
      message = 'Array is too long (' + value.length + '), maximum ' + p.limit; break;
    case 'uniqueItems':
      code = codes.ARRAY_UNIQUE; params = { match1: p.j, match2: p.i };
      message = 'Array items are not unique (indices ' + p.j + ' and ' + p.i + ')'; break;
    case 'additionalItems': code = codes.ARRAY_ADDITIONAL_ITEMS; message = 'Additional items not allowed'; break;
    case 'anyOf': code = codes.ANY_OF_MISSING; message = 'Data does not match any schemas from "anyOf"'; break;
    case 'oneOf':
      code = p.passingSchemas ? codes.ONE_OF_MULTIPLE : codes.ONE_OF_MISSING;
      message = p.passingSchemas ? 'Data is valid against more than one schema from "oneOf": indices ' + p.passingSchemas.join(' and ')
                                 : 'Data does not match any schemas from "oneOf"'; break;
    case 'not': code = codes.NOT_PASSED; message = 'Data matches schema from "not"'; break;
    case 'format': code = codes.FORMAT_CUSTOM; params = { message: error.message }; message = 'Format validation failed (' + error.message + ')'; break;
    default: code = codes.KEYWORD_CUSTOM; message = error.message;
  }
  return { code: code, message: message, params: params, dataPath: error.dataPath, schemaPath: error.schemaPath.replace(/^#/, ''),
           subErrors: null, toString: function () { return message; } };
}

function api() {
  var Ajv = null, schemas = {}, formats = {};
  var tv4 = { error: null, missing: [], valid: true, errorCodes: codes };
  function validator(all) {
    if (!Ajv) Ajv = require('ajv');
    var ajv = new Ajv({ schemaId: 'auto', meta: false, validateSchema: false, allErrors: all, jsonPointers: true,
                        unknownFormats: 'ignore', logger: false, extendRefs: true });
    Object.keys(ajv._formats).forEach(function (name) { ajv.addFormat(name, function () { return true; }); });
    Object.keys(formats).forEach(function (name) {
      ajv.addFormat(name, function (value) { var r = formats[name](value); return r === null || r === undefined || r === true; });
    });
    Object.keys(schemas).forEach(function (uri) { ajv.addSchema(schemas[uri], uri); });
    return ajv;
  }
  // Compiles `schema`; each $ref to an unknown schema becomes `{}` and is listed in `missing`, as tv4 does.
  function run(data, schema, all) {
    var ajv = validator(all), missing = [], validate;
    for (var attempt = 0; attempt < 100; attempt++) {
      try { validate = ajv.compile(schema); break; } catch (e) {
        if (!e.missingSchema || missing.indexOf(e.missingSchema) >= 0) throw e;
        missing.push(e.missingSchema);
        // A stand-in that has the referenced path, so the reference resolves (to a schema allowing anything).
        var hash = e.missingRef.indexOf('#'), stand = {}, node = stand;
        (hash < 0 ? '' : e.missingRef.slice(hash + 1)).split('/').slice(1).forEach(function (part) {
          node = node[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] = {};
        });
        ajv.addSchema(stand, e.missingSchema);
      }
    }
    var valid = validate(data);
    return { valid: valid, errors: valid ? [] : (validate.errors || []).map(function (e) { return convert(e, data); }), missing: missing };
  }
  tv4.validate = function (data, schema) {
    var result = run(data, schema, false);
    tv4.valid = result.valid;
    tv4.error = result.errors[0] || null;
    tv4.missing = result.missing;
    return result.valid;
  };
  tv4.validateResult = function (data, schema) {
    var result = run(data, schema, false);
    return { valid: result.valid, error: result.errors[0] || null, missing: result.missing };
  };
  tv4.validateMultiple = function (data, schema) {
    var result = run(data, schema, true);
    return { valid: result.valid, errors: result.errors, missing: result.missing };
  };
  tv4.addSchema = function (uri, schema) {
    if (typeof uri === 'object') { schema = uri; uri = schema.id || schema.$id; }
    schemas[String(uri).replace(/#$/, '')] = schema;
  };
  tv4.getSchema = function (uri) { return schemas[String(uri).replace(/#$/, '')]; };
  tv4.getSchemaUris = function () { return Object.keys(schemas); };
  tv4.dropSchemas = function () { schemas = {}; };
  tv4.reset = function () { schemas = {}; formats = {}; tv4.error = null; tv4.missing = []; tv4.valid = true; };
  tv4.addFormat = function (name, fn) {
    if (typeof name === 'object') { Object.keys(name).forEach(function (key) { formats[key] = name[key]; }); return; }
    formats[name] = fn;
  };
  tv4.freshApi = api;
  tv4.tv4 = tv4;
  return tv4;
}
module.exports = api();
"""#
}
