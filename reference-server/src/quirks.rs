//! The plugin's twin: named quirks, each one way in which a real site running the plugin
//! answers otherwise than the reference profile, which the server can reproduce on request
//! (`--quirk NAME`, repeatable; `--like plugin-6.17.2` turns every quirk of that release on).
//!
//! A quirk is either a contradiction of the interface document that the plugin makes (its
//! `source` is a section of the interface, and a must case shows it) or the plugin's side of one
//! of the reference server's own decisions (its `source` is a `D` section of docs/behaviour.md,
//! and a may case shows it). The table below is the one list: `--help`, the admin API, the
//! journal page and docs/behaviour.md read it, and a test checks that every case it names exists.

/// One quirk of the plugin that the server can reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quirk {
    TagsFirstOnly,
    IncludeDateWindow,
    IncludeByPublication,
    LoneDateIgnored,
    VenueListRefused,
    StickyDraftRedated,
    LanguageUnchecked,
    AnyAuthor,
    ContributorPrivate,
    OthersUnpublishedListed,
    BySlugGeneralRight,
    UpdateResets,
    GeneralRightFirst,
    BySlugBodySlug,
    OrganizerDescriptionKept,
    DraftNoSlug,
    CmsExposedHeaders,
    NoUnlinkForms,
    UnmatchedSearchTotal,
    LooseDuplicates,
    PluginListLinks,
    WindowFromYesterday,
    ImageUrlRefused,
    NaiveDates,
    OffsetZones,
    LinkedSeenByAll,
    TermsForWriters,
    TrashListed,
}

/// What a quirk is: its name on the command line, the section it departs from, what it does,
/// and the case that shows it (a must case for the interface's sections, a may case for a `D`).
#[derive(Clone, Copy, Debug)]
pub struct QuirkSpec {
    pub quirk: Quirk,
    pub name: &'static str,
    /// `4.2`, `2.1`… (the interface document) or `D8`… (docs/behaviour.md, part 2).
    pub source: &'static str,
    /// One line: what the server does with the quirk on.
    pub what: &'static str,
    /// The test name (`file::case`) of the case that passes with the quirk and fails without it
    /// (or the reverse).
    pub case: &'static str,
}

/// Every quirk, in the order `--help` and the documents list them.
pub const QUIRKS: &[QuirkSpec] = &[
    QuirkSpec {
        quirk: Quirk::TagsFirstOnly,
        name: "tags-first-only",
        source: "4.2",
        what: "an events list given tags as an array (tags[]=a&tags[]=b) keeps only the first tag's events",
        case: "events-list/filters::tags selects by ID or slug, as an array or a comma list",
    },
    QuirkSpec {
        quirk: Quirk::IncludeDateWindow,
        name: "include-date-window",
        source: "4.2",
        what: "an events list with include still applies the default date window",
        case: "events-list/filters::include returns exactly the listed events whatever their dates",
    },
    QuirkSpec {
        quirk: Quirk::IncludeByPublication,
        name: "include-by-publication",
        source: "D8",
        what: "an events list with include is ordered by publication date, then ID, not by start",
        case: "events-list/filters::include lists the events in ascending order of start",
    },
    QuirkSpec {
        quirk: Quirk::LoneDateIgnored,
        name: "lone-date-ignored",
        source: "4.1",
        what: "an event update that carries only one of start_date and end_date keeps both dates",
        case: "events/by-slug::POST, PUT and PATCH on the slug all update the event",
    },
    QuirkSpec {
        quirk: Quirk::VenueListRefused,
        name: "venue-list-refused",
        source: "2.1",
        what: "an event write giving venue as a JSON list of IDs is refused with 400 could-not-create-venue",
        case: "events/links::venue, organizers, categories and tags given as ID lists are linked",
    },
    QuirkSpec {
        quirk: Quirk::StickyDraftRedated,
        name: "sticky-draft-redated",
        source: "4.1",
        what: "an update that leaves an event a draft or pending and sets sticky dates it at the time of the \
               update, whatever date it gives, and it reads as never published",
        case: "events/update::every scalar write field can be changed by an update and reads back",
    },
    QuirkSpec {
        quirk: Quirk::LanguageUnchecked,
        name: "language-unchecked",
        source: "D3",
        what: "the language parameter takes any value, and one that is not a language of the site is ignored",
        case: "protocol/language::an unknown language is an invalid parameter on every list and description route",
    },
    QuirkSpec {
        quirk: Quirk::AnyAuthor,
        name: "any-author",
        source: "D14",
        what:
            "anyone who may write an item may name any existing user as its author (inline venues and organizers too)",
        case: "auth/objects::only users who may edit others' items may set another author",
    },
    QuirkSpec {
        quirk: Quirk::ContributorPrivate,
        name: "contributor-private",
        source: "D30",
        what: "a user who may not publish and asks for private gets private, not pending",
        case: "auth/contributor-rights::a contributor asking for private gets pending",
    },
    QuirkSpec {
        quirk: Quirk::OthersUnpublishedListed,
        name: "others-unpublished-listed",
        source: "D12",
        what: "contributors and authors list others' drafts, pending and scheduled items too, not only their own",
        case:
            "auth/visibility::the reference server lists to contributors and authors only their own unpublished events",
    },
    QuirkSpec {
        quirk: Quirk::BySlugGeneralRight,
        name: "by-slug-general-right",
        source: "D13",
        what: "updates and deletes by slug check only the right to edit that kind of item, not the right on the item",
        case: "events/by-slug::by-slug writes check the rights on the event itself",
    },
    QuirkSpec {
        quirk: Quirk::UpdateResets,
        name: "update-resets",
        source: "D16",
        what: "an update publishes (or, from those who may not publish, drafts) an item without status, trash \
               included; an event update resets the flags, all_day, website, cost and zone it leaves out, \
               dates the event at the time of the update unless it gives a date, and unlinks the organizers; a venue update resets the map flags and derives stateprovince again",
        case: "events/update::an update that carries one field keeps every other field",
    },
    QuirkSpec {
        quirk: Quirk::GeneralRightFirst,
        name: "general-right-first",
        source: "D42",
        what: "an event update or delete of an ID that is not an event checks the right to write events first (401, 403)",
        case: "events/delete::deleting a venue's ID through the events route is rest-invalid-event-id even for an anonymous reader",
    },
    QuirkSpec {
        quirk: Quirk::BySlugBodySlug,
        name: "by-slug-body-slug",
        source: "D19",
        what: "an event update by slug whose body gives a slug answers 404 rest-event-not-found for ID 0",
        case: "events/by-slug::a slug in the body of a by-slug update renames the event",
    },
    QuirkSpec {
        quirk: Quirk::OrganizerDescriptionKept,
        name: "organizer-description-kept",
        source: "D39",
        what: "an organizer update that sends description empty keeps the description",
        case: "organizers/update::the reference server clears an organizer's description sent empty",
    },
    QuirkSpec {
        quirk: Quirk::DraftNoSlug,
        name: "draft-no-slug",
        source: "D15",
        what: "a draft or pending event gets no slug from its title until it is published",
        case: "events/by-slug::a draft keeps its slug, readable by editors and not anonymously",
    },
    QuirkSpec {
        quirk: Quirk::CmsExposedHeaders,
        name: "cms-exposed-headers",
        source: "D23",
        what: "Access-Control-Expose-Headers names the CMS's headers only, not X-TEC-Total and X-TEC-TotalPages",
        case: "protocol/transport::the total headers are exposed to browser clients",
    },
    QuirkSpec {
        quirk: Quirk::NoUnlinkForms,
        name: "no-unlink-forms",
        source: "D20",
        what: "venue given as \"\" or 0 keeps the venue, and organizer given as a comma string of IDs is refused \
               with 400 could-not-create-organizer",
        case: "events/links::organizers given as a comma-separated string of IDs are linked",
    },
    QuirkSpec {
        quirk: Quirk::UnmatchedSearchTotal,
        name: "unmatched-search-total",
        source: "D11",
        what: "a venue or organizer list whose search matches nothing reports the total (and pages) of the list \
               without the search",
        case: "venues/list::a search without matches reports zero totals",
    },
    QuirkSpec {
        quirk: Quirk::LooseDuplicates,
        name: "loose-duplicates",
        source: "D18",
        what: "a venue or organizer create (inline data too) is the duplicate of any item of the same name (and \
               description, when given) whoever may read it, and writes the request's other fields over it",
        case: "venues/create::a venue differing in one field is created as a new venue",
    },
    QuirkSpec {
        quirk: Quirk::PluginListLinks,
        name: "plugin-list-links",
        source: "D10",
        what: "list links as the plugin writes them: the defaults it applied (page, per_page, the date window, \
               status), not encoded in rest_url; venue and organizer links without search, term links with the \
               page only",
        case: "venues/list::the links between pages keep the request's own parameters",
    },
    QuirkSpec {
        quirk: Quirk::WindowFromYesterday,
        name: "window-from-yesterday",
        source: "D7",
        what: "the default events window starts at the beginning of the site's day that holds 23:59 UTC \
               yesterday: yesterday, for sites at or west of UTC",
        case: "events-list/dates::the default window starts today, not yesterday",
    },
    QuirkSpec {
        quirk: Quirk::ImageUrlRefused,
        name: "image-url-refused",
        source: "D17",
        what: "an image given as a URL is refused with 400 rest_invalid_param naming image, as a site refuses an \
               address it cannot download an image from (the twin downloads nothing)",
        case: "events/create::an image URL becomes an image record that another event can use by ID",
    },
    QuirkSpec {
        quirk: Quirk::NaiveDates,
        name: "naive-dates",
        source: "D21",
        what: "event dates lose the offset written after their time, a Unix timestamp is its UTC wall time in the \
               event's zone, a zone change alone keeps the UTC times, and an end moved to the start keeps its UTC end",
        case: "events/dates-and-zones::ISO 8601 dates with an offset or Z are converted into the event's zone",
    },
    QuirkSpec {
        quirk: Quirk::OffsetZones,
        name: "offset-zones",
        source: "D41",
        what: "an event in a fixed offset (UTC+2) gets its UTC times from a named zone picked for the offset, \
               summer time included, or from UTC when there is none for it; the offset is still its timezone",
        case: "events/dates-and-zones::a fixed offset keeps its offset in summer",
    },
    QuirkSpec {
        quirk: Quirk::LinkedSeenByAll,
        name: "linked-seen-by-all",
        source: "D29",
        what: "an event shows its venue and organizers to every reader, a writer may link any venue or organizer, \
               and the lists by event (event=, post=, has_events) look at any event's links",
        case: "auth/linked-visibility::an event write cannot link a venue the writer may not read",
    },
    QuirkSpec {
        quirk: Quirk::TermsForWriters,
        name: "terms-for-writers",
        source: "D31",
        what: "an event write that names unknown categories or tags creates them for anyone who may write the event",
        case: "auth/contributor-rights::an event write creates terms only for those who may manage them",
    },
    QuirkSpec {
        quirk: Quirk::TrashListed,
        name: "trash-listed",
        source: "D9",
        what: "a list asked for status trash lists the trashed items to those who may write such items",
        case: "events-list/visibility::the reference server lists no trashed event even when asked for status trash",
    },
];

/// A release of the plugin the twin can answer as, and the quirks it turns on (all of them).
pub const LIKES: &[&str] = &["plugin-6.17.2"];

/// The quirks a server reproduces; none by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quirks {
    bits: u64,
}

impl Quirks {
    /// Every quirk of the table.
    pub fn all() -> Quirks {
        QUIRKS.iter().fold(Quirks::default(), |quirks, spec| quirks.with(spec.quirk))
    }

    pub fn with(self, quirk: Quirk) -> Quirks {
        Quirks { bits: self.bits | 1 << index(quirk) }
    }

    pub fn on(self, quirk: Quirk) -> bool {
        self.bits & 1 << index(quirk) != 0
    }

    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// The specs of the quirks that are on, in table order.
    pub fn specs(self) -> impl Iterator<Item = &'static QuirkSpec> {
        QUIRKS.iter().filter(move |spec| self.on(spec.quirk))
    }

    /// The quirks of a release (`--like`): `plugin-6.17.2`.
    pub fn like(name: &str) -> Result<Quirks, String> {
        match LIKES.contains(&name) {
            true => Ok(Quirks::all()),
            false => Err(format!("unknown --like {name:?}: the server can answer like {}", LIKES.join(", "))),
        }
    }

    /// Adds the quirk of this name (`--quirk`).
    pub fn with_name(self, name: &str) -> Result<Quirks, String> {
        match QUIRKS.iter().find(|spec| spec.name == name.trim()) {
            Some(spec) => Ok(self.with(spec.quirk)),
            None => Err(format!("unknown quirk {name:?}: see --help for the list")),
        }
    }

    /// The quirks of an optional `--like` and of any `--quirk` names, together.
    pub fn from_flags(like: Option<&str>, names: &[String]) -> Result<Quirks, String> {
        let start = match like {
            Some(like) => Quirks::like(like)?,
            None => Quirks::default(),
        };
        names.iter().try_fold(start, |quirks, name| quirks.with_name(name))
    }
}

/// The release whose quirks are exactly these, if any (what `--like` turned on).
pub fn like_of(quirks: Quirks) -> Option<&'static str> {
    LIKES.iter().copied().find(|like| Quirks::like(like).is_ok_and(|all| all == quirks))
}

/// A quirk's place in the table (its bit).
fn index(quirk: Quirk) -> usize {
    QUIRKS.iter().position(|spec| spec.quirk == quirk).expect("every quirk is in the table")
}

/// The list of quirks for a `--help` text: one line each, name and what it does.
pub fn help_list() -> String {
    QUIRKS
        .iter()
        .map(|spec| format!("  {:<26} ({}) {}", spec.name, spec.source, spec.what))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_each_switches_one_quirk_alone() {
        for (i, spec) in QUIRKS.iter().enumerate() {
            assert!(
                QUIRKS[..i].iter().all(|other| other.name != spec.name && other.quirk != spec.quirk),
                "{}",
                spec.name
            );
            let one = Quirks::default().with_name(spec.name).unwrap();
            assert!(one.on(spec.quirk));
            assert_eq!(one.specs().count(), 1, "{}", spec.name);
        }
        assert!(Quirks::default().is_empty());
        assert_eq!(Quirks::like("plugin-6.17.2").unwrap().specs().count(), QUIRKS.len());
        assert!(Quirks::like("plugin-1.0").unwrap_err().contains("plugin-6.17.2"));
        assert!(Quirks::default().with_name("no-such-quirk").unwrap_err().contains("unknown quirk"));
        let two = Quirks::from_flags(None, &["tags-first-only".into(), "lone-date-ignored".into()]).unwrap();
        assert_eq!(two.specs().map(|spec| spec.name).collect::<Vec<_>>(), ["tags-first-only", "lone-date-ignored"]);
    }

    /// The case names of a `cases/known/` file (the `--expectations` format: one name a line,
    /// `  # ` before a comment, a name holding a `#` written as a JSON string).
    fn known(file: &str) -> std::collections::BTreeSet<String> {
        let path = format!("{}/../cases/known/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let name = |line: &str| match line.starts_with('"') {
            true => serde_json::Deserializer::from_str(line).into_iter::<String>().next().unwrap().unwrap(),
            false => line.split_once("  # ").map_or(line, |(name, _)| name).trim().to_string(),
        };
        text.lines().filter(|line| !line.trim().is_empty() && !line.starts_with('#')).map(name).collect()
    }

    #[test]
    fn the_twin_fails_only_cases_the_site_fails_and_each_quirk_shows() {
        let (twin, site) = (known("twin-plugin-6.17.2.txt"), known("plugin-6.17.2.txt"));
        let extra: Vec<&String> = twin.difference(&site).collect();
        assert!(extra.is_empty(), "the twin fails cases the site passes: {extra:#?}");
        for spec in QUIRKS {
            assert!(twin.contains(spec.case) && site.contains(spec.case), "{}: {} is not listed", spec.name, spec.case);
        }
    }

    #[test]
    fn docs_behaviour_lists_each_quirk_with_its_case() {
        let path = format!("{}/../docs/behaviour.md", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let part = text.split_once("## Part 3: the plugin's twin").map(|(_, part)| part).expect("Part 3");
        for spec in QUIRKS {
            let row = part.lines().find(|line| line.starts_with(&format!("| `{}` |", spec.name)));
            let row = row.unwrap_or_else(|| panic!("docs/behaviour.md, Part 3: no row for {}", spec.name));
            assert!(row.contains(&format!("| {} |", spec.source)) && row.contains(spec.case), "{row}");
        }
    }

    #[test]
    fn each_quirk_cites_a_section_and_a_case_of_the_suite() {
        for spec in QUIRKS {
            let is_decision = spec.source.starts_with('D');
            let is_section =
                spec.source.split('.').all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
            assert!(is_decision || is_section, "{}: {}", spec.name, spec.source);
            let (file, name) = spec.case.split_once("::").expect("file::case");
            let path = format!("{}/../cases/{file}.yaml", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(text.contains(&format!("name: {name}\n")), "{}: no case {name:?} in {path}", spec.name);
        }
    }
}
