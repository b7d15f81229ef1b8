/**
 * Types of the schema files, generated from schemas/meta (`npm run gen:types`), plus the loaded
 * form the engine works with.
 */
import type { Dict } from './generated/dict';
import type { Menu } from './generated/menu';
import type { Resource } from './generated/resource';
import type { Screen } from './generated/screen';
import type { JsonSource } from './json-source';

export type { Dict, DictItem } from './generated/dict';
export type { Menu, MenuNode } from './generated/menu';
export type { Resource, Field, FieldType, RuleRef, Workflow, WorkflowState, WorkflowAction, ResourceDocument } from './generated/resource';
export type {
  Screen,
  ListScreen,
  FormScreen,
  DetailScreen,
  WizardScreen,
  WizardStep,
  StatsScreen,
  DocumentScreen,
  DocumentSignature,
  StatsCard,
  StatsChart,
  StatsWhere,
  ChartType,
  Section,
  FieldRef,
  FieldItem,
  ServerValue,
  ActionRef,
  ListColumn,
  ColumnItem,
  ListFilter,
  FilterItem,
  ToolbarItem,
  EditMode,
  Proof,
  FormSource,
} from './generated/screen';

/** The kinds of schema file, by where they live under the schema directory. */
export type SchemaKind = 'resource' | 'screen' | 'dict' | 'menu';

export interface SchemaDocumentTypes {
  resource: Resource;
  screen: Screen;
  dict: Dict;
  menu: Menu;
}

/** A schema file as text, with its path relative to the schema directory (forward slashes). */
export interface SchemaText {
  path: string;
  text: string;
}

/** A parsed schema file of a known kind. `value` is typed once the file passed its meta-schema. */
export interface SchemaFile<K extends SchemaKind = SchemaKind> {
  path: string;
  kind: K;
  /** File name without `.json`: the name or id the file must declare. */
  basename: string;
  source: JsonSource;
  value: SchemaDocumentTypes[K];
}

/** The meta-schemas by kind (menu may be missing while nobody wrote it). */
export type MetaSchemas = Partial<Record<SchemaKind, object>>;
