export type {
  DiffSection,
  FilterRow,
  NodeRow,
  PlanSection,
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
