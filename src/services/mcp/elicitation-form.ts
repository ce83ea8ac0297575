import type { ElicitationAnswer, ElicitationForm, FieldInput, FormField } from './types';

// An elicitation form as data: the fields read from the server's requested schema (flat
// properties of string, number, integer, boolean, and single- or multi-select enums), the values
// they start with (the schema's defaults), what is wrong with a value, and the content sent back.
// Pure, shared by the TUI frame, `--elicitation` answers in scripts and the conformance client.

type Schema = Record<string, unknown>;

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const;

const isRecord = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Options of a titled (`oneOf`/`anyOf` of `const` + `title`), untitled (`enum`) or legacy (`enumNames`) enum. */
function optionsOf(schema: Schema): Array<{ value: string; label: string }> | undefined {
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (titled) {
    const options = titled.filter(isRecord).flatMap((option) => (typeof option.const === 'string' ? [{ value: option.const, label: str(option.title) ?? option.const }] : []));
    return options.length > 0 ? options : undefined;
  }
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((value): value is string => typeof value === 'string').map((value, index) => ({ value, label: str(names[index]) ?? value }));
  }
  return undefined;
}

function fieldOf(name: string, schema: Schema, required: boolean): FormField | string {
  const base = { name, title: str(schema.title) ?? name, ...(str(schema.description) ? { description: str(schema.description)! } : {}), required };
  const type = schema.type;
  if (type === 'array') {
    const items = isRecord(schema.items) ? schema.items : {};
    const options = optionsOf(items);
    if (!options) return `field ${name}: an array without enum items is not supported`;
    const fallback = Array.isArray(schema.default) ? schema.default.filter((value): value is string => typeof value === 'string') : undefined;
    return { ...base, kind: 'choice', multiple: true, options, ...(num(schema.minItems) !== undefined ? { minItems: num(schema.minItems)! } : {}), ...(num(schema.maxItems) !== undefined ? { maxItems: num(schema.maxItems)! } : {}), ...(fallback ? { default: fallback } : {}) };
  }
  if (type === 'string') {
    const options = optionsOf(schema);
    if (options) return { ...base, kind: 'choice', multiple: false, options, ...(str(schema.default) !== undefined ? { default: [str(schema.default)!] } : {}) };
    const format = FORMATS.find((known) => known === schema.format);
    return {
      ...base,
      kind: 'text',
      ...(format ? { format } : {}),
      ...(num(schema.minLength) !== undefined ? { minLength: num(schema.minLength)! } : {}),
      ...(num(schema.maxLength) !== undefined ? { maxLength: num(schema.maxLength)! } : {}),
      ...(str(schema.default) !== undefined ? { default: str(schema.default)! } : {}),
    };
  }
  if (type === 'number' || type === 'integer') {
    return {
      ...base,
      kind: 'number',
      integer: type === 'integer',
      ...(num(schema.minimum) !== undefined ? { minimum: num(schema.minimum)! } : {}),
      ...(num(schema.maximum) !== undefined ? { maximum: num(schema.maximum)! } : {}),
      ...(num(schema.default) !== undefined ? { default: num(schema.default)! } : {}),
    };
  }
  if (type === 'boolean') return { ...base, kind: 'boolean', ...(typeof schema.default === 'boolean' ? { default: schema.default } : {}) };
  return `field ${name}: type ${JSON.stringify(type ?? null)} is not supported`;
}

/** The form the schema asks for, or why it cannot be shown (nested objects, unknown types). */
export function formFromSchema(schema: unknown): { form: ElicitationForm } | { problem: string } {
  if (!isRecord(schema) || !isRecord(schema.properties)) return { problem: 'the requested schema has no properties' };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const field = isRecord(property) ? fieldOf(name, property, required.has(name)) : `field ${name}: not a schema`;
    if (typeof field === 'string') return { problem: field };
    fields.push(field);
  }
  return { form: { fields } };
}

/** The value a field starts with: its default, else empty (booleans start unchecked). */
export function initialInput(field: FormField): FieldInput {
  switch (field.kind) {
    case 'text':
      return field.default ?? '';
    case 'number':
      return field.default !== undefined ? String(field.default) : '';
    case 'boolean':
      return field.default ?? false;
    case 'choice':
      return (field.default ?? []).filter((value) => field.options.some((option) => option.value === value));
  }
}

export function initialInputs(form: ElicitationForm): FieldInput[] {
  return form.fields.map(initialInput);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

function formatProblem(format: string, text: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'not an email address (name@example.com)';
    case 'uri':
      try {
        new URL(text);
        return undefined;
      } catch {
        return 'not a URI (https://example.com)';
      }
    case 'date':
      return isDate(text) ? undefined : 'not a date (YYYY-MM-DD)';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && isDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'not a date and time (YYYY-MM-DDTHH:MM:SSZ)';
  }
  return undefined;
}

const isEmpty = (input: FieldInput | undefined) => input === undefined || input === '' || (Array.isArray(input) && input.length === 0);

/** What is wrong with this value for the field, in a few words, or undefined. */
export function fieldProblem(field: FormField, input: FieldInput | undefined): string | undefined {
  if (isEmpty(input)) return field.required ? 'required' : undefined;
  switch (field.kind) {
    case 'text': {
      const text = String(input);
      const length = [...text].length;
      if (field.minLength !== undefined && length < field.minLength) return `at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && length > field.maxLength) return `at most ${field.maxLength} characters`;
      return field.format ? formatProblem(field.format, text) : undefined;
    }
    case 'number': {
      const text = String(input).trim();
      const value = Number(text);
      if (text === '' || !Number.isFinite(value)) return field.integer ? 'not a whole number' : 'not a number';
      if (field.integer && !Number.isInteger(value)) return 'not a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof input === 'boolean' ? undefined : 'yes or no';
    case 'choice': {
      const chosen = Array.isArray(input) ? input : [String(input)];
      if (chosen.some((value) => !field.options.some((option) => option.value === value))) return 'not one of the choices';
      if (!field.multiple && chosen.length > 1) return 'choose one';
      if (field.minItems !== undefined && chosen.length < field.minItems) return `choose at least ${field.minItems}`;
      if (field.maxItems !== undefined && chosen.length > field.maxItems) return `choose at most ${field.maxItems}`;
      return undefined;
    }
  }
}

/** One problem per field (undefined where the value is fine). */
export function formProblems(form: ElicitationForm, inputs: readonly (FieldInput | undefined)[]): Array<string | undefined> {
  return form.fields.map((field, index) => fieldProblem(field, inputs[index]));
}

/** The `accept` answer for these values, or undefined while any field has a problem. Empty optional fields are left out. */
export function acceptAnswer(form: ElicitationForm, inputs: readonly (FieldInput | undefined)[]): Extract<ElicitationAnswer, { action: 'accept' }> | undefined {
  if (formProblems(form, inputs).some((problem) => problem !== undefined)) return undefined;
  const content: Record<string, string | number | boolean | string[]> = {};
  form.fields.forEach((field, index) => {
    const input = inputs[index];
    if (input === undefined || isEmpty(input)) return;
    if (field.kind === 'number') content[field.name] = Number(String(input).trim());
    else if (field.kind === 'choice') content[field.name] = field.multiple ? (Array.isArray(input) ? input : [String(input)]) : Array.isArray(input) ? input[0]! : String(input);
    else content[field.name] = input;
  });
  return { action: 'accept', content };
}

/**
 * A value given in a script (`--elicitation`) as the field's input: numbers and booleans as JSON
 * values (or text), choices as a value or a list of values (the option's value or its label).
 */
export function inputFromAnswer(field: FormField, value: unknown): FieldInput | undefined {
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? value : value === undefined ? undefined : JSON.stringify(value);
    case 'number':
      return typeof value === 'number' || typeof value === 'string' ? String(value) : undefined;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'yes') return true;
      if (value === 'false' || value === 'no') return false;
      return undefined;
    case 'choice': {
      const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
      return list.map((item) => {
        const text = String(item);
        return field.options.find((option) => option.value === text)?.value ?? field.options.find((option) => option.label === text)?.value ?? text;
      });
    }
  }
}
