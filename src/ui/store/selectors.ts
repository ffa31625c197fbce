/**
 * Every selector the panels use, in one import. Each is a named pure
 * function from store state (snapshots, views, config) to what a panel
 * draws; panels memoize them on the snapshot they picked.
 */
export * from './seriesSelectors';
export * from './clusterSelectors';
export * from './logSelectors';
export * from './summarySelectors';
export * from './serviceSelectors';
