// What other modules may import from filters (docs/architecture.md, "Module boundaries"):
// the lint rule mailroom/module-boundaries allows an import from another module only of a file listed here.
export * from './compile-filter';
export { FILTER_LIMITS, FILTER_TREE, FilterTreeSchema, filtersOf, referencedDataKeys, referencedSegments, referencedTopics, type Filter, type FilterGroup, type FilterTree } from './filter-tree';
export * from './filter.types';
export * from './validate-filter';
