/**
 * Checks an answer of the sandbox (or of any upstream) against the platform's published definition: the schema of
 * its route and status in schemas.json (extracted by extract-schemas.mjs), and for the Delivery API's two JSON routes
 * (`GET /v2/media/{media_id}`, `GET /v2/playlists/{playlist_id}`, on the delivery side) delivery-schema.json, written
 * from that definition's examples (it gives no schema). Runs in workerd, so the validator is one that compiles no code
 * at run time (@cfworker/json-schema).
 *
 * Error answers are checked against the v2 error body of the spec (`{"errors":[{code, description}]}`, the contract
 * the upstream honours): the definition sketches some of them as a bare array.
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import definition from './schemas.json';
import deliverySchema from './delivery-schema.json';

type Responses = Record<string, Schema | null>;
const EXTRACTED = (definition as unknown as { routes: Record<string, Responses> }).routes;

/**
 * Routes of the definition whose sandbox answers are not yet brought to it (work in progress). Each leaves this
 * list with the change that aligns it; everything else in schemas.json is enforced.
 */
export const NOT_YET_ALIGNED: readonly string[] = [
  // The upload API as the official clients drive it: their part listing reads a part's number as `id` and the sandbox
  // answers `complete` with a summary, where the definition has base resources and a bare 202.
  'GET /v2/uploads/{upload_id}/parts/',
  'PUT /v2/uploads/{upload_id}/complete/',
];

/**
 * The Delivery API's JSON routes, each answer checked against delivery-schema.json (the definition lists 200, 403 and
 * 404; every refusal is held to the error body, as on the Management routes). The schema is closed at every depth, so
 * an answer that passes holds nothing undocumented: the documented-shapes upstream has nothing to drop from it.
 */
export const DELIVERY_ROUTES: Record<string, Responses> = {
  'GET /v2/media/{media_id}': { 200: deliverySchema as Schema },
  'GET /v2/playlists/{playlist_id}': { 200: deliverySchema as Schema },
};

/** The definition's routes as checked: every extracted route but the ones not yet aligned, and the delivery routes. */
const ROUTES: Record<string, Responses> = {
  ...Object.fromEntries(Object.entries(EXTRACTED).filter(([key]) => !NOT_YET_ALIGNED.includes(key))),
  ...DELIVERY_ROUTES,
};

/** The schema of a route's status as extracted (aligned or not): for tests of the checker itself. */
export function extractedSchema(route: string, status: number): Schema | null | undefined {
  return EXTRACTED[route]?.[String(status)];
}

const ERROR_BODY: Schema = {
  type: 'object',
  required: ['errors'],
  unevaluatedProperties: false,
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object', required: ['code', 'description'], unevaluatedProperties: false,
        properties: { code: { type: 'string', minLength: 1 }, description: { type: 'string' } },
      },
    },
  },
};

interface Template {
  key: string;
  method: string;
  segments: string[];
  /** How many segments are literal: a literal segment beats a `{parameter}` (`playlists/manual_playlist/`). */
  literals: number;
}

const TEMPLATES: Template[] = Object.keys(ROUTES).map((key) => {
  const [method, path] = key.split(' ') as [string, string];
  const segments = path.split('/').filter(Boolean);
  return { key, method, segments, literals: segments.filter((s) => !s.startsWith('{')).length };
}).sort((a, b) => b.literals - a.literals);

/**
 * The definition's route key (`GET /v2/sites/{site_id}/media/`, `GET /v2/media/{media_id}`) of a request, or null when
 * it documents none (the delivery host's files among them: `/v2/media/<id>/poster.jpg` has more segments).
 */
export function routeKey(method: string, pathname: string): string | null {
  const segments = pathname.split('/').filter(Boolean);
  for (const template of TEMPLATES) {
    if (template.method !== method || template.segments.length !== segments.length) continue;
    if (template.segments.every((s, i) => s.startsWith('{') || s === segments[i])) return template.key;
  }
  return null;
}

const validators = new Map<Schema, Validator>();
function validatorOf(schema: Schema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema, '2020-12', false);
    validators.set(schema, validator);
  }
  return validator;
}

export interface Verdict {
  /** The definition's route, or null when the request is not one it documents (sandbox controls, CDN, geo). */
  route: string | null;
  /** What does not match, one line each (`/metadata/format: ...`); empty when the answer conforms. */
  violations: string[];
}

/**
 * The answer's conformance. A documented route's success status must be one the definition lists, with a body of
 * that status's schema (or none, where it documents none); an error status must carry the v2 error body.
 */
export function checkAnswer(method: string, pathname: string, status: number, body: string): Verdict {
  const route = routeKey(method, pathname);
  if (!route) return { route, violations: [] };
  const responses = ROUTES[route]!;
  if (status >= 400) return { route, violations: validate(ERROR_BODY, body, status) };
  if (!(String(status) in responses)) {
    return { route, violations: [`status ${status} is not one the definition lists (${Object.keys(responses).join(', ')})`] };
  }
  const schema = responses[String(status)];
  if (schema === null || schema === undefined) {
    return { route, violations: body.length ? [`status ${status} has no body in the definition, but ${body.length} bytes came`] : [] };
  }
  return { route, violations: validate(schema, body, status) };
}

function validate(schema: Schema, body: string, status: number): string[] {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return [`status ${status}: the body is not JSON`];
  }
  const result = validatorOf(schema).validate(value);
  if (result.valid) return [];
  // The deepest errors say what is wrong; the ones above them only repeat that a member failed.
  const leaves = result.errors.filter((error) => !['properties', 'allOf', 'items', 'anyOf', 'oneOf', '$ref'].includes(error.keyword));
  return (leaves.length ? leaves : result.errors).slice(0, 20).map((error) => `${error.instanceLocation.replace(/^#/, '') || '/'}: ${error.error}`);
}

/**
 * The answer with only what the definition names: members outside a schema's `properties` are dropped (a map the
 * definition types with `additionalProperties` keeps its keys), and an object it leaves open without naming any member
 * becomes empty. Run after checkAnswer, on an answer that conforms.
 */
export function documentedOnly(route: string, status: number, value: unknown): unknown {
  // A delivery answer that conforms has nothing undocumented in it (its schema is closed, its parts behind `$ref`).
  if (route in DELIVERY_ROUTES) return value;
  const schema = ROUTES[route]?.[String(status)];
  return schema ? prune(schema, value) : value;
}

function membersOf(schema: Schema): Schema[] {
  return [schema, ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap((keyword) => (schema[keyword] as Schema[] | undefined ?? []).flatMap(membersOf))];
}

function prune(schema: Schema, value: unknown): unknown {
  const members = membersOf(schema);
  if (Array.isArray(value)) {
    const items = members.map((member) => member.items).find((items): items is Schema => typeof items === 'object' && !Array.isArray(items));
    return items ? value.map((item) => prune(items, item)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  // A member may be named by several allOf members (a resource's base and its own part): it is pruned by all of them.
  const named = new Map<string, Schema[]>();
  let map: Schema | true | undefined;
  for (const member of members) {
    for (const [name, property] of Object.entries(member.properties ?? {})) named.set(name, [...(named.get(name) ?? []), property as Schema]);
    const extra = member.additionalProperties;
    if (extra === true || (typeof extra === 'object' && extra !== null)) map ??= extra as Schema | true;
  }
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const property = named.get(name);
    if (property) out[name] = prune(property.length === 1 ? property[0]! : { allOf: property }, member);
    else if (map === true) out[name] = member;
    else if (map) out[name] = prune(map, member);
  }
  return out;
}
