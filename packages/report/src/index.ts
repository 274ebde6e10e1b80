export type {
  DiffSection,
  FilterRow,
  NodeRow,
  PodExplain,
  PodRow,
  ReasonCount,
  ReportModel,
  ReportSection,
  ResourceCell,
  SimulationSection,
  WhySection,
} from "./model";
export { type ReportInput, renderReport, reportModel } from "./render-report";
