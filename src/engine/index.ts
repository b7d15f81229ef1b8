/**
 * The schema engine's public surface: render a screen from its JSON, over a data provider.
 *
 *   <EngineProvider dataProvider={createRestDataProvider(transport)} roleType={...} screenPath={...}>
 *     <SchemaScreen screenId="some-list" />
 *   </EngineProvider>
 */
export { default as SchemaScreen, registerScreenComponent, type SchemaScreenProps } from './SchemaScreen';
export { EngineProvider, useEngine, type EngineSettings } from './context';
export type { ScreenComponentProps } from './screen-props';
export { createRestDataProvider, type RestTransport, type RestOptions } from './data/rest';
export {
  EngineError,
  toEngineError,
  type DataProvider,
  type ListQuery,
  type PageResult,
  type RecordData,
  type FlowLogEntry,
  type ActionInput,
  type AttachmentValue,
  type UploadOptions,
  type ImportOptions,
  type ImportProblem,
  type ImportResult,
  type SortSpec,
  type StatsQuery,
  type StatsResult,
} from './data/provider';
export { useList, useRecord, useFlowLog, useStats, useScreenBundle, useInvalidateResource } from './data/hooks';
export { bundledRegistry } from './registry/bundled';
export { memoryRegistry, loadScreenBundle, SchemaNotFoundError, type SchemaRegistry, type ScreenBundle } from './registry/registry';
export { compileForm, compileFormUncached, defaultValues } from './form/compile';
export { registerFieldComponent } from './form/components';
export { screenHref } from './navigation';
export { registerListDialog, type ListDialogProps } from './list/dialogs';
