/**
 * The MCP Apps views: one `ui://` document each, built from src/apps/<id>/main.ts into
 * dist/apps/<id>.html. Tools name their view here, the server registers these as resources, and the
 * build bundles exactly these entries, so the three cannot disagree about which views exist.
 */
export interface ViewDefinition {
  /** The folder under src/apps and the file name under dist/apps. */
  id: string;
  uri: `ui://${string}`;
  title: string;
  description: string;
}

const view = (id: string, title: string, description: string): ViewDefinition => ({
  id,
  uri: `ui://service-mcp/${id}.html`,
  title,
  description,
});

export const VIEWS = {
  jobList: view(
    'job-list',
    'Job results',
    'Jobs as a sortable table with salary evidence classes, paging, and a job opened in place',
  ),
  job: view('job', 'Job posting', 'One posting in full, with its evidence and the link to its source'),
  marketMap: view(
    'market-map',
    'Market map',
    'Dimensions by layer, coloured by readiness, with job counts, median salaries and trends',
  ),
  interviewBrief: view(
    'interview-brief',
    'Interview brief',
    'Interview stages, topics, questions to ask and dated evidence for one company',
  ),
} as const satisfies Record<string, ViewDefinition>;

export const VIEW_LIST: readonly ViewDefinition[] = Object.values(VIEWS);
