// The API's records as the dashboard reads them (screenshot-api-v1.md is the law for these shapes).

export interface Screenshot {
  id: number;
  status: 'processing' | 'finished' | 'error';
  error?: string;
  url: string;
  final_url: string;
  response_code?: number | null;
  cost: number;
  country: string;
  browser?: string;
  size: string;
  shots: number;
  html: boolean;
  pdf: boolean;
  video: boolean;
  video_format: string;
  created_at: string;
  finished_at: string;
  tag: string[];
  has_html?: boolean;
  has_pdf?: boolean;
  has_video?: boolean;
  [field: string]: unknown;
}

export interface Batch {
  id: number;
  status: string;
  error: string;
  started: number;
  finished: number;
  count: number;
  processed: number;
  failed: number;
  zip_url: string;
  name?: string | null;
  screenshots?: number[];
  attempts?: { attempt: number; count: number; processed: number; failed: number }[];
}

export interface Crawl {
  id: number;
  status: string;
  domain: string;
  start_url: string;
  max_urls: number;
  total_discovered: number;
  processed: number;
  failed: number;
  error?: string;
  created_at: string;
  started: number;
  finished: number;
  screenshots?: Screenshot[];
}

export interface Monitor {
  id: number;
  name: string;
  url: string;
  status: 'active' | 'paused';
  interval: number;
  cron: string;
  threshold: number;
  ignore: (string | { x: number; y: number; width: number; height: number })[];
  next_run_at: string;
  last_run_at: string;
  created_at: string;
}

export interface MonitorRun {
  id: number;
  trigger: 'schedule' | 'manual';
  scheduled_for: string;
  created_at: string;
  status: string;
  error: string;
  screenshot_id: number | null;
  previous_screenshot_id: number | null;
  change_ratio: number | null;
  changed: boolean;
  diff_url: string;
  text_changes: { added: string[]; removed: string[]; added_count: number; removed_count: number } | null;
}
