export { parseFormSchema, sensitiveFields, type EnumOption, type FieldKind, type FieldSpec, type FormSchema, type StringFormat } from './schema';
export { submission, type FormValues } from './submission';
export { useSchemaForm, type SchemaFormState, type ValidationErrors } from './use-schema-form';
export { SchemaFields } from './SchemaFields';
export { loadSchemaForm } from './load';
