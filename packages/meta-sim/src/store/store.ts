import { defaultSettings } from '../config.ts';
import type { AdAccountRecord, DeliverySnapshot, SimState } from './state.ts';

/** What a Graph id points at. */
export type NodeKind =
  | 'user'
  | 'business'
  | 'adaccount'
  | 'page'
  | 'post'
  | 'pixel'
  | 'campaign'
  | 'adset'
  | 'ad'
  | 'creative'
  | 'image'
  | 'video'
  | 'reportrun'
  | 'asyncsession';

/** Ids start here so they look like Graph ids (15 digits) and stay exact in a JS number. */
const FIRST_ID = 120_000_000_000_001;

export function emptyState(): SimState {
  return {
    version: 1,
    next_id: FIRST_ID,
    users: {},
    tokens: {},
    auth_codes: {},
    businesses: {},
    ad_accounts: {},
    pages: {},
    posts: {},
    pixels: {},
    campaigns: {},
    adsets: {},
    ads: {},
    creatives: {},
    images: {},
    videos: {},
    upload_sessions: {},
    report_runs: {},
    async_sessions: {},
    sites: {},
    settings: defaultSettings(),
  };
}

/** The state plus id allocation, lookups by id and change notification (for persistence). */
export class Store {
  private changeListener: (() => void) | undefined;
  /** Grows with every change, so derived indexes know when to rebuild. */
  version = 0;

  constructor(public state: SimState) {}

  onChange(listener: () => void): void {
    this.changeListener = listener;
  }

  /** Marks the state dirty; the snapshot writer debounces. */
  changed(): void {
    this.version += 1;
    this.changeListener?.();
  }

  replace(state: SimState): void {
    this.state = state;
    this.changed();
  }

  /** Numeric-string ids from one counter, as the Graph API's ids are numeric strings. */
  newId(): string {
    const id = this.state.next_id;
    this.state.next_id += 1;
    return String(id);
  }

  kindOf(id: string): NodeKind | undefined {
    const s = this.state;
    if (id.startsWith('act_')) return s.ad_accounts[id.slice(4)] ? 'adaccount' : undefined;
    if (id.includes(':')) return s.images[id] ? 'image' : undefined;
    if (s.campaigns[id]) return 'campaign';
    if (s.adsets[id]) return 'adset';
    if (s.ads[id]) return 'ad';
    if (s.creatives[id]) return 'creative';
    if (s.posts[id]) return 'post';
    if (s.pages[id]) return 'page';
    if (s.pixels[id]) return 'pixel';
    if (s.videos[id]) return 'video';
    if (s.report_runs[id]) return 'reportrun';
    if (s.async_sessions[id]) return 'asyncsession';
    if (s.businesses[id]) return 'business';
    if (s.users[id]) return 'user';
    return undefined;
  }

  account(accountId: string): AdAccountRecord | undefined {
    return this.state.ad_accounts[accountId.replace(/^act_/, '')];
  }
}

/** Appends a delivery snapshot when something delivery-relevant changed. */
export function recordSnapshot(history: DeliverySnapshot[], snapshot: DeliverySnapshot): void {
  const last = history[history.length - 1];
  if (
    last &&
    last.on === snapshot.on &&
    last.from === snapshot.from &&
    last.until === snapshot.until &&
    last.daily_budget === snapshot.daily_budget &&
    last.lifetime_budget === snapshot.lifetime_budget
  ) {
    return;
  }
  if (last && last.at === snapshot.at) history[history.length - 1] = snapshot;
  else history.push(snapshot);
}
