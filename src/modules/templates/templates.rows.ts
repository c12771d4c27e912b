/** What the template list sorts by (`TemplatesRepository`'s keyset and offset pages). */
export const TEMPLATE_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export type TemplateSort = (typeof TEMPLATE_SORTS)[number];
