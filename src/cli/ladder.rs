use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use plotters::prelude::*;
use search::{
    load_all, round_robin, round_robin_pairs, Algorithm, MatchSettings, Opening, PlannerSpec,
};

use super::bad_input;
use super::matches::{progress, save_pdn};

/// What the ladder needs of `arena`'s arguments.
pub struct LadderArgs<'a> {
    pub levels: &'a Path,
    pub games: usize,
    pub threads: usize,
    pub max_plies: usize,
    pub out: Option<&'a Path>,
    pub plot: PathBuf,
    /// Pairs at most this many places apart in rank order (None: all pairs).
    pub span: Option<usize>,
}

/// Prints one `pair:` line per pairing (`pair: HIGHER vs LOWER score S (W-D-L)`), then one
/// `level:` line per level (`level: NAME rank R spec SPEC elo E vs_below S`) and
/// `plot: PATH` (and `plot: PATH` of the generations picture when the ladder has `zero` levels).
pub fn run(l: LadderArgs<'_>, openings: &[Opening]) -> anyhow::Result<ExitCode> {
    let levels = load_all(l.levels).map_err(bad_input)?;
    if levels.len() < 2 {
        return Err(bad_input(format!(
            "{}: a ladder needs at least two levels",
            l.levels.display()
        )));
    }
    let names: Vec<String> = levels.iter().map(|l| l.name.clone()).collect();
    let specs: Vec<_> = levels.iter().map(|l| l.spec).collect();
    let settings = MatchSettings {
        games: l.games,
        threads: l.threads,
        max_plies: l.max_plies,
        think: None,
    };
    let bar = progress(round_robin_pairs(specs.len(), l.span).len() * l.games);
    let rr = round_robin(&specs, l.span, openings, &settings, &|| bar.inc(1));
    bar.finish_and_clear();
    let mut results = Vec::new();
    for (j, i, m) in &rr.matches {
        if let Some(dir) = l.out {
            save_pdn(
                &dir.join(format!("{}-vs-{}", names[*j], names[*i])),
                m,
                openings,
            )?;
        }
        let t = m.tally();
        println!(
            "pair: {} vs {} score {:.3} ({}-{}-{})",
            names[*j],
            names[*i],
            t.score(),
            t.wins,
            t.draws,
            t.losses
        );
        results.push((*j, *i, t));
    }
    let elo = rr.elo;
    for (k, level) in levels.iter().enumerate() {
        let vs_below = results
            .iter()
            .find(|(j, i, _)| *j == k && *i + 1 == k)
            .map(|(_, _, t)| format!("{:.3}", t.score()))
            .unwrap_or_else(|| "-".into());
        println!(
            "level: {} rank {} spec {} elo {:.0} vs_below {vs_below}",
            level.name, level.rank, level.spec, elo[k]
        );
    }
    draw(&l.plot, &names, &elo).with_context(|| format!("cannot draw {}", l.plot.display()))?;
    println!("plot: {}", l.plot.display());
    let generations: Vec<(u32, f64)> = levels
        .iter()
        .zip(&elo)
        .filter_map(|(l, e)| match l.spec {
            PlannerSpec::Zero(z) => Some((z.generation, *e)),
            _ => None,
        })
        .collect();
    if !generations.is_empty() {
        let references: Vec<(String, f64)> = levels
            .iter()
            .zip(&elo)
            .filter(|(l, _)| matches!(l.spec.algorithm(), Algorithm::AlphaBeta | Algorithm::Mcts))
            .map(|(l, e)| (format!("{} ({})", l.name, l.spec), *e))
            .collect();
        let path = l.plot.with_file_name("generations.svg");
        draw_generations(&path, &generations, &references)
            .with_context(|| format!("cannot draw {}", path.display()))?;
        println!("plot: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The ladder as an SVG line chart: level against fitted Elo. SVG text needs no system fonts.
fn draw(path: &Path, names: &[String], elo: &[f64]) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let lo = elo.iter().cloned().fold(f64::INFINITY, f64::min) - 100.0;
    let hi = elo.iter().cloned().fold(f64::NEG_INFINITY, f64::max) + 100.0;
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let n = names.len();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Difficulty ladder (Elo, easiest level = 0)",
            ("sans-serif", 22),
        )
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), lo..hi)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
            names[i as usize].clone()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&label)
        .y_desc("Elo")
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let points: Vec<(f64, f64)> = elo
        .iter()
        .enumerate()
        .map(|(i, e)| (i as f64, *e))
        .collect();
    chart
        .draw_series(LineSeries::new(points.clone(), &BLUE))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .draw_series(points.iter().map(|p| Circle::new(*p, 5, BLUE.filled())))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .draw_series(points.iter().map(|&(x, y)| {
            Text::new(
                format!("{y:.0}"),
                (x, y + (hi - lo) * 0.04),
                ("sans-serif", 14),
            )
        }))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

/// Elo by network generation, on the ladder's scale, with the alpha-beta and MCTS levels as
/// horizontal reference lines.
fn draw_generations(
    path: &Path,
    generations: &[(u32, f64)],
    references: &[(String, f64)],
) -> anyhow::Result<()> {
    let all = generations
        .iter()
        .map(|g| g.1)
        .chain(references.iter().map(|r| r.1));
    let lo = all.clone().fold(f64::INFINITY, f64::min) - 100.0;
    let hi = all.fold(f64::NEG_INFINITY, f64::max) + 100.0;
    let last = generations.iter().map(|g| g.0).max().unwrap_or(0) as f64;
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("{e}");
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "AlphaZero generations on the ladder (Elo, easiest level = 0)",
            ("sans-serif", 22),
        )
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(last + 0.5), lo..hi)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_labels(generations.len().max(2))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("generation")
        .y_desc("Elo")
        .draw()
        .map_err(|e| err(&e))?;
    for (k, (name, e)) in references.iter().enumerate() {
        let colour = Palette99::pick(k + 1).to_rgba();
        chart
            .draw_series(DashedLineSeries::new(
                vec![(-0.5, *e), (last + 0.5, *e)],
                6,
                4,
                colour.into(),
            ))
            .map_err(|e| err(&e))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    let mut points: Vec<(f64, f64)> = generations.iter().map(|&(g, e)| (g as f64, e)).collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    chart
        .draw_series(LineSeries::new(points.clone(), &BLUE))
        .map_err(|e| err(&e))?
        .label("zero:gen=N")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart
        .draw_series(points.iter().map(|p| Circle::new(*p, 5, BLUE.filled())))
        .map_err(|e| err(&e))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
