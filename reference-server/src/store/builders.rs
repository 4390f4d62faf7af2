//! Stores built without the interface: the first posts and sample images of a fresh site,
//! and the direct builders of the demo calendar (`--demo`) and the benchmark seed
//! (`--seed-events`). This is the reference server's own data, which no case may rely on, so
//! the mutation sample leaves this file out (docs/mutants.md).

use super::*;

impl Data {
    /// The store of a freshly installed site: the CMS's own first three posts (a post, a page
    /// and the privacy page, IDs 1 to 3) and two sample images in the media library (IDs 4
    /// and 5), so image IDs work out of the box. Calendar items start at ID 6.
    pub fn fresh_site(site_url: &str) -> Data {
        let mut data = Data::default();
        for _ in 0..3 {
            let id = data.allocate_post_id();
            data.set_kind(id, PostKind::Page);
        }
        // Like the CMS, a medium copy only for images wider than it, and a square thumbnail.
        // The file sizes are those of gradient PNGs of these dimensions (the media library of
        // a real site reports them, for the image and for each copy).
        let samples =
            [("sample-landscape", 640, 480, 102_936, [2_712, 1_895]), ("sample-small", 300, 200, 107_407, [0, 3_214])];
        for (name, width, height, filesize, [medium_size, thumbnail_size]) in samples {
            let id = data.allocate_post_id();
            let base = format!("{site_url}/wp-content/uploads/{name}");
            let mut sizes = Vec::new();
            if width > 300 {
                let medium_height = 300 * height / width;
                let url = format!("{base}-300x{medium_height}.png").into();
                sizes.push(ImageSize { name: "medium", width: 300, height: medium_height, filesize: medium_size, url });
            }
            let url = format!("{base}-150x150.png").into();
            sizes.push(ImageSize { name: "thumbnail", width: 150, height: 150, filesize: thumbnail_size, url });
            data.put_image(Image {
                id,
                url: format!("{base}.png").into(),
                extension: "png".into(),
                meta: Some(ImageMeta { width, height, filesize, sizes }),
            });
        }
        data
    }

    /// As `unique_slug_besides`, with no pending write.
    pub fn unique_slug(&self, kind: SlugKind, lang: Lang, wanted: &str, own: Option<Id>) -> String {
        self.unique_slug_besides(kind, lang, wanted, own, &|_| false)
    }

    /// Runs a bulk load (the seed of `--seed-events`).
    pub fn bulk_load<R>(&mut self, load: impl FnOnce(&mut Data) -> R) -> R {
        let result = load(self);
        self.changed_in_bulk();
        result
    }
}
