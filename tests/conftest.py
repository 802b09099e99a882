import os
import signal

import pytest
from hypothesis import HealthCheck, settings

# Property tests: enough examples to find edge cases, few enough for a 2-core CI run.
settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


#: Tests left out of `make test-fast` (the tests to run while working): each takes more than
#: about two seconds on two cores (measured with --durations), or starts a browser or a fresh
#: interpreter per example. `make test` runs them all. A test id without its [parameters] names
#: every case; with them, that case alone.
SLOW_FILES = (
    "tests/test_help_examples.py",  # every --help example, each in its own interpreter
    "tests/test_readme.py",  # every console block of the README
    "tests/test_docs.py",  # every console block of the docs, and the site's build
    "tests/test_web_baikago.py",  # a real browser
    "tests/test_play_browser.py",  # a real browser
    "tests/test_play_conformance.py",  # a real browser solves every puzzle
)
SLOW_TESTS = {
    "tests/test_cli.py::test_the_demo_runs_and_every_count_matches",
    "tests/test_cli.py::test_less_than_three_find_exit_codes",
    "tests/test_cli.py::test_count_prints_the_number_alone_on_the_last_line[args0-28]",
    "tests/test_cli.py::test_output_into_a_closed_pipe_is_not_an_error",
    "tests/test_closed_tours.py::test_the_widest_state_on_a_small_board",
    "tests/test_closed_tours.py::test_agrees_with_plain_backtracking",
    "tests/test_closed_tours.py::test_agrees_with_the_one_word_sweep[5-6]",
    "tests/test_closed_tours.py::test_agrees_with_the_one_word_sweep[6-6]",
    "tests/test_goishi_requests.py::test_the_table_of_stones_is_the_exhaustive_layout_count",
    "tests/test_goishi_requests.py::test_no_request_that_could_succeed_is_refused_on_small_boards",
    "tests/test_goishi_generator.py::test_unique_layouts_of_5x5_resume_from_a_checkpoint_with_the_same_counts",
    "tests/test_less_than_three.py::test_classes_equal_the_twins_canonical_forms_on_larger_boards",
    "tests/test_less_than_three.py::test_symmetric_boards_match_flammenkamps_table[8-rotate 180-36]",
    "tests/test_less_than_three.py::test_classes_equal_the_least_image_count_and_the_twins_canonical_forms[rules0]",
    "tests/test_less_than_three.py::test_kernel_equals_the_reference_backtracker[rules2]",
    "tests/test_less_than_three.py::test_find_returns_a_checked_board_with_the_symmetry_it_names[21]",
    "tests/test_baikago_resume.py::test_a_resumed_search_gives_the_same_checked_proof",
    "tests/test_baikago.py::test_vcf_finds_exactly_what_the_plain_search_finds",
    "tests/test_baikago.py::test_alpha_beta_with_its_table_returns_the_plain_minimax_value",
    "tests/test_baikago.py::test_the_computer_beats_the_greedy_player_on_15x15",
    "tests/test_baikago.py::test_move_scores_evaluation_and_fours_match_the_twins[0]",
    "tests/test_baikago_solve.py::test_a_strategy_stops_where_any_image_of_the_position_has_a_pairing",
    "tests/test_long_counts.py::test_counts_on_a_local_dask_cluster_equal_the_local_ones",
    "tests/test_long_counts.py::test_a_soft_time_limit_waits_for_its_work",
    "tests/test_long_counts.py::test_ctrl_c_keeps_the_finished_subtasks",
    "tests/test_long_counts.py::test_a_run_killed_with_sigkill_resumes_from_its_checkpoint",
    "tests/test_long_counts.py::test_a_dense_goishi_board_obeys_its_time_limit",
    "tests/test_checkpoint_side_files.py::test_a_damaged_closed_tour_layer_is_refused_not_counted",
    "tests/test_knights_tour.py::test_dp_agrees_with_plain_backtracking_on_3x10",
    "tests/test_knights_tour.py::test_every_tour_matches_the_plain_backtracking[4-6-3]",
    "tests/test_queens.py::test_subtask_weights_add_up_to_the_whole[11-False]",
    "tests/test_queens.py::test_full_group_classes_equal_the_least_image_listing[17]",
    "tests/test_pictures.py::test_ctrl_c_during_a_timed_replay_ends_it_quietly_with_130",
    "tests/test_pictures.py::test_ctrl_c_ends_animate_quietly_with_130",
    "tests/test_pictures.py::test_animate_in_a_terminal_is_coloured_with_coordinates_and_q_quits",
    "tests/test_pictures.py::test_a_1000x1000_tour_stays_under_10_mb",
    "tests/test_limits_hold.py::test_a_hopeless_many_colour_count_starts_without_gigabytes",
    "tests/test_limits_hold.py::test_splitting_a_40x40_count_holds_its_prefixes_not_whole_boards",
    "tests/test_less_than_three.py::test_the_find_kernel_agrees_with_its_plain_twin[rotate 180-2-8]",
    "tests/test_less_than_three.py::test_eight_by_eight_tuples_and_classes_by_brute_force[2-counts0]",
    "tests/test_less_than_three.py::test_kernel_equals_the_reference_backtracker[rules7]",
    "tests/test_less_than_three.py::test_classes_equal_the_least_image_count_and_the_twins_canonical_forms[rules4]",
    "tests/test_web_connections.py::test_an_idle_server_uses_no_cpu",
    "tests/test_web_connections.py::test_slow_clients_are_closed_and_normal_requests_answered_meanwhile",
    "tests/test_web_store.py::test_a_hundred_open_games_are_all_kept_and_survive_a_restart",
    "tests/test_fuzz_inputs.py::test_parsers_stay_small_on_inputs_up_to_the_cap",
    "tests/test_fuzz_inputs.py::test_every_command_ends_with_a_known_exit_code",
    "tests/test_baikago_resume.py::test_a_time_limit_keeps_the_search_and_the_next_run_goes_on",
    "tests/test_baikago_solve.py::test_twin_agrees_on_the_empty_board[4]",
    "tests/test_baikago_solve.py::test_stop_flag_interrupts_the_search",
    "tests/test_baikago_solve.py::test_time_limit_stops_the_search",
    "tests/test_baikago_solve.py::test_cli_solve_bad_input_and_time_limit",
    "tests/test_goishi_generator.py::test_searching_one_layout_a_class_agrees_with_searching_every_layout",
    "tests/test_goishi_generator.py::test_join_makes_a_unique_19x19_with_60_stones_crossing_once",
    "tests/test_input_limits.py::test_parsers_stay_small_and_quick_on_inputs_under_the_cap[<lambda>9]",
    "tests/test_input_limits.py::test_a_closed_pipe_stops_quietly_with_exit_0",
    "tests/test_long_counts.py::test_a_forced_thread_that_fails_with_another_error_answers_the_stop",
    "tests/test_long_counts.py::test_cli_scheduler_flag",
    "tests/test_engine_protocol.py::test_the_engine_answers_a_huge_line_in_one_short_line_and_stays_small",
    "tests/test_queens.py::test_orbit_search_twin_equals_the_brute_force[11]",
    "tests/test_limits_hold.py::test_checking_and_writing_the_tour_out_are_within_the_time_limit",
    "tests/test_startup.py::test_warmup_compiles_every_puzzle_in_worker_processes",
    "tests/test_tutorial.py::test_the_commands_print_what_the_page_shows_and_take_json_and_pictures",
    "tests/test_tutorial.py::test_the_json_api_plays_it",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        nodeid = item.nodeid
        if nodeid.startswith(SLOW_FILES) or nodeid in SLOW_TESTS or nodeid.split("[")[0] in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _ctrl_c_as_python_sets_it():
    """The command line's ``main`` owns its process: once its outcome is decided it ignores
    Ctrl-C, and an ignored signal is inherited by every program started afterwards. A test that
    calls ``main`` in this process would leave the later tests' commands deaf to their Ctrl-C, so
    Python's own handler is put back around every test (also when the suite itself was started
    with Ctrl-C ignored, as a background job of a script is)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, signal.default_int_handler)
