export { parseFormSchema, sensitiveFields, type EnumOption, type FieldKind, type FieldSpec, type FormSchema, type StringFormat } from './schema';
export { validate, validateField, type ValidationErrors } from './validate';
export { defaultValues, submission, JsonDraft, type FormValues } from './values';
export { useSchemaForm, fieldId, type SchemaFormState } from './use-schema-form';
export { SchemaFields } from './SchemaFields';
