//! Metafile pictures in hand-built decks: a PowerPoint 2007 OLE object (no `p:pic`) shows
//! the EMF preview its slide's VML drawing names, and the EMF is displayable.

use super::support::{PptxFixture, PptxSlide};
use crate::office::pptx::model::{ImageSource, ShapeKind};
use crate::office::pptx::{parse_pptx, render_slide, RenderOptions};
use crate::office::OfficeLimits;

const EMF: &[u8] = include_bytes!("../../../fixtures/metafile/shapecrawler-009_table-image4.emf");

const OLE_FRAME: &str = r#"<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Object 4"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="304800" y="457200"/><a:ext cx="4652962" cy="2064399"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/presentationml/2006/ole"><p:oleObj spid="_x0000_s1026" name="Worksheet" r:id="rId7" imgW="5495993" imgH="2438290" progId="Excel.Sheet.12"><p:embed/></p:oleObj></a:graphicData></a:graphic></p:graphicFrame>"#;

const VML: &str = r##"<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><v:shape id="_x0000_s1025" type="#_x0000_t75"><v:imagedata o:relid="rId9"/></v:shape><v:shape id="_x0000_s1026" type="#_x0000_t75" style="position:absolute;left:24pt;top:36pt;width:366pt;height:162pt"><v:imagedata o:relid="rId1" o:title=""/></v:shape></xml>"##;

const VML_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/image1.emf"/></Relationships>"#;

#[test]
fn a_2007_ole_object_shows_the_emf_preview_of_its_vml_shape() {
    let mut slide = PptxSlide::new(OLE_FRAME);
    slide.rels = vec![
        (
            "rId1".into(),
            "vmlDrawing".into(),
            "../drawings/vmlDrawing1.vml".into(),
            false,
        ),
        (
            "rId7".into(),
            "oleObject".into(),
            "../embeddings/oleObject1.bin".into(),
            false,
        ),
    ];
    let mut f = PptxFixture::new(vec![slide]);
    f.parts = vec![
        (
            "ppt/drawings/vmlDrawing1.vml".into(),
            VML.as_bytes().to_vec(),
        ),
        (
            "ppt/drawings/_rels/vmlDrawing1.vml.rels".into(),
            VML_RELS.as_bytes().to_vec(),
        ),
        ("ppt/media/image1.emf".into(), EMF.to_vec()),
        ("ppt/embeddings/oleObject1.bin".into(), vec![0; 16]),
    ];
    let deck = parse_pptx(&f.build(), &OfficeLimits::default()).expect("fixture parses");
    let ShapeKind::Embedded(e) = &deck.slides[0].shapes[0].kind else {
        panic!(
            "not an embedded object: {:?}",
            deck.slides[0].shapes[0].kind
        );
    };
    assert_eq!(
        e.preview,
        Some(ImageSource::Part {
            part: "ppt/media/image1.emf".into()
        })
    );
    assert!(deck
        .media
        .iter()
        .any(|m| m.part == "ppt/media/image1.emf" && m.displayable));
    let html = render_slide(&deck, 0, &RenderOptions::default());
    assert!(
        html.contains("<img src=\"media/ppt/media/image1.emf\""),
        "{html}"
    );
    assert!(!html.contains("pptx-embed"), "{html}");
}
